import { Fragment } from 'react';

/**
 * A file name that may wrap after its dots, dashes and underscores (and between words) rather than letter by
 * letter: `report.final.2026.pdf` breaks as `report.final.` / `2026.pdf`.
 */
export function BreakableName({ name }: { name: string }) {
  const parts = name.split(/(?<=[._-])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
