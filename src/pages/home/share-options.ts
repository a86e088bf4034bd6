import { slugProblem, type SlugProblem } from '../../../contract/slugs';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Expiry choices of the Markdown form: never, an hour, a day and a week, as CloudPaste offers, plus longer ones. */
export const PASTE_EXPIRY_CHOICES = ['never', '1h', '1d', '7d', '14d', '30d', '90d', '180d'] as const;
export type PasteExpiryChoice = (typeof PASTE_EXPIRY_CHOICES)[number];

const DURATION_MS: Record<Exclude<PasteExpiryChoice, 'never'>, number> = {
  '1h': HOUR,
  '1d': DAY,
  '7d': 7 * DAY,
  '14d': 14 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
  '180d': 180 * DAY,
};

export function expiresAtFor(choice: PasteExpiryChoice, now: Date): string | null {
  return choice === 'never' ? null : new Date(now.getTime() + DURATION_MS[choice]).toISOString();
}

export interface ShareFormValues {
  slug: string;
  remark: string;
  password: string;
  expiry: PasteExpiryChoice;
  maxViews: string;
  /** Encrypt in the browser: the key goes into the link only (src/lib/crypto/paste-cipher.ts). */
  encrypt: boolean;
}

export type ShareFormErrors = Partial<{ slug: SlugProblem; maxViews: 'invalid'; content: 'required' }>;

export function validateShareForm(values: ShareFormValues, content: string): ShareFormErrors {
  const errors: ShareFormErrors = {};
  if (!content.trim()) errors.content = 'required';
  const slug = values.slug.trim();
  const problem = slug ? slugProblem(slug) : undefined;
  if (problem) errors.slug = problem;
  const views = values.maxViews.trim();
  if (views && !(/^\d+$/.test(views) && Number.isSafeInteger(Number(views)))) errors.maxViews = 'invalid';
  return errors;
}
