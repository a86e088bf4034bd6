import { Fragment } from 'react';

/**
 * A file name that a line may break only before a dot or after a dash or underscore ("big-30MB" / ".bin"), never
 * inside a word and with no hyphen added: <wbr> marks the places. Its box needs `overflow-wrap: break-word` (not
 * `anywhere`, which lets a flex row squeeze the name to a letter per line) for a name with no such place at all.
 */
export function BreakableName({ name }: { name: string }) {
  const pieces = name.split(/(?=\.)|(?<=[-_])/);
  return (
    <>
      {pieces.map((piece, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
