import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes, as Stripe spells its own. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** What lists show of a secret: enough to tell two apart, too little to sign with. */
export const secretHint = (secret: string) => `${secret.slice(0, 8)}…${secret.slice(-4)}`;

/**
 * The `X-Clipstash-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. The time is inside
 * what is signed, so a receiver that refuses old times refuses a replayed request (docs/webhooks.md).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}
