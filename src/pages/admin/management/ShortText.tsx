/**
 * A short form that fits one table cell ("Nov 27", "3 / ∞") with its full words as the hover title and as what a
 * screen reader reads (a title alone is not reliably announced).
 */
export function ShortText({ short, full }: { short: string; full: string }) {
  return (
    <span title={full}>
      <span aria-hidden>{short}</span>
      <span className="visually-hidden">{full}</span>
    </span>
  );
}
