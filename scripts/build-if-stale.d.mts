export function buildIfStale(root?: string): void;
