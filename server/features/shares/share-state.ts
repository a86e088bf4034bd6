/** The limits a paste or a file share can reach, as its row stores them. */
export interface ShareLimits {
  expires_at: string | null;
  max_views: number;
  views: number;
}

/**
 * A share past its expiry or its view limit; expired wins when both hold. Expiries are canonical UTC ISO text,
 * so text order is time order.
 */
export function shareStateOf(row: ShareLimits, now: Date): 'active' | 'expired' | 'used_up' {
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return 'expired';
  if (row.max_views > 0 && row.views >= row.max_views) return 'used_up';
  return 'active';
}

/** Views left before the view limit; null when there is none. */
export function viewsLeftOf(row: Pick<ShareLimits, 'max_views' | 'views'>): number | null {
  return row.max_views > 0 ? Math.max(0, row.max_views - row.views) : null;
}
