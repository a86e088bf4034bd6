export const SIZE_UNITS = ['KB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

const MB_PER_UNIT: Record<SizeUnit, number> = { KB: 1 / 1024, MB: 1, GB: 1024 };

/** The server keeps megabytes; fractions carry KB. */
export const toMegabytes = (amount: number, unit: SizeUnit): number => amount * MB_PER_UNIT[unit];

/** The friendliest unit for a stored MB value: whole GB, whole or fractional MB, or KB below 1 MB. */
export function fromMegabytes(mb: number): { amount: number; unit: SizeUnit } {
  if (mb >= 1024 && Number.isInteger(mb / 1024)) return { amount: mb / 1024, unit: 'GB' };
  if (mb < 1) return { amount: round(mb * 1024), unit: 'KB' };
  return { amount: round(mb), unit: 'MB' };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
