/** The kinds of records an import brings over, in the order it brings them. */
export const KINDS = ['storage configs', 'mounts', 'admin', 'API keys', 'pastes', 'file shares', 'settings'] as const;
export type Kind = (typeof KINDS)[number];

/** A line with its control characters written out (`\u001b`): text from the source must not steer the terminal. */
const visible = (line: string): string => line.replace(/\p{Cc}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

export interface Skipped {
  kind: Kind;
  /** The row as a person finds it in CloudPaste: a slug, a name, a path. */
  item: string;
  reason: string;
}

/** A row refused because it points outside what the import brings, or at an unsafe storage key: never imported. */
export interface Refused extends Skipped {
  /** The row's CloudPaste id, to find it in the source. */
  id: string;
}

/**
 * What an import did (or, dry, would do): counts per kind, every row it left out as CloudPaste data it has no place
 * for (skipped), and every row it refused as untrustworthy (refused), with why.
 */
export class ImportReport {
  readonly imported = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]));
  /** Rows a previous run brought over already (found by CloudPaste's id, which the import keeps). */
  readonly already = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]));
  readonly skipped: Skipped[] = [];
  readonly refused: Refused[] = [];
  /** File shares whose object moved into the share area (or would, dry). */
  sharesMoved = 0;
  sharesNotMoved = 0;

  add(kind: Kind): void {
    this.imported.set(kind, (this.imported.get(kind) ?? 0) + 1);
  }

  alreadyThere(kind: Kind): void {
    this.already.set(kind, (this.already.get(kind) ?? 0) + 1);
  }

  skip(kind: Kind, item: string, reason: string): void {
    this.skipped.push({ kind, item, reason });
  }

  refuse(kind: Kind, id: string, item: string, reason: string): void {
    this.refused.push({ kind, id, item, reason });
  }

  lines(dryRun: boolean): string[] {
    const verb = dryRun ? 'would import' : 'imported';
    const lines = KINDS.map((kind) => {
      const already = this.already.get(kind) ?? 0;
      const skipped = this.skipped.filter((row) => row.kind === kind).length;
      const refused = this.refused.filter((row) => row.kind === kind).length;
      return (
        `  ${kind}: ${verb} ${this.imported.get(kind) ?? 0}` +
        (already ? `, ${already} imported before` : '') +
        (skipped ? `, ${skipped} skipped` : '') +
        (refused ? `, ${refused} refused` : '')
      );
    });
    const move = dryRun ? 'would move' : 'moved';
    lines.push(`  share objects ${move} into the share area: ${this.sharesMoved}` + (this.sharesNotMoved ? `, ${this.sharesNotMoved} not moved yet (the server tries again)` : ''));
    if (this.skipped.length > 0) {
      lines.push('Skipped:');
      for (const row of this.skipped) lines.push(`  ${row.kind} ${row.item}: ${row.reason}`);
    }
    if (this.refused.length > 0) {
      lines.push('Refused (never imported, and refused again by every run):');
      for (const row of this.refused) lines.push(`  ${row.kind} ${JSON.stringify(row.item)} (id ${JSON.stringify(row.id)}): ${row.reason}`);
    }
    return lines.map(visible);
  }
}
