export const SERVER_ENTRY: string;
export const SERVER_NODE_ARGS: readonly string[];
