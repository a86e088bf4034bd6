import { useLingui } from '@lingui/react/macro';
import { Copy, Download, Eye, EyeOff, FileCode, KeyRound, QrCode as QrIcon } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type QRCodeStyling from 'qr-code-styling';
import { copyText } from '../../lib/clipboard';
import { toasts } from '../../lib/toast';
import { Button } from '../Button';
import { QrCode } from './QrCode';
import styles from './ShareLinkDisplay.module.css';

/** How long a fresh link stays on screen before it hides itself (someone may be looking over a shoulder). */
export const LINK_HIDE_SECONDS = 60;

interface ShareLinkDisplayProps {
  url: string;
  rawUrl?: string;
  /** Used for the QR file name. */
  name: string;
  /** Encrypted in the browser: the links carry the key in their fragment, and the panel says what that means. */
  encrypted?: boolean;
}

/** The link of a new share: copy it, copy its raw link, show and download a QR code; it hides itself after a minute. */
export function ShareLinkDisplay({ url, rawUrl, name, encrypted = false }: ShareLinkDisplayProps) {
  const { t } = useLingui();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(LINK_HIDE_SECONDS);
  const [hidden, setHidden] = useState(false);
  const [showQr, setShowQr] = useState(false);
  const [qr, setQr] = useState<QRCodeStyling>();
  const qrBlock = useRef<HTMLDivElement>(null);
  const onQrReady = useCallback((code: QRCodeStyling) => setQr(code), []);

  useEffect(() => {
    setSecondsLeft(LINK_HIDE_SECONDS);
    setHidden(false);
  }, [url]);

  useEffect(() => {
    if (secondsLeft === null || hidden) return;
    if (secondsLeft <= 0) {
      setHidden(true);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((left) => (left === null ? null : left - 1)), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, hidden]);

  // The code opens under the buttons, often below the fold: brought into view, or the click seems to do nothing.
  useEffect(() => {
    if (showQr) qrBlock.current?.scrollIntoView({ block: 'nearest' });
  }, [showQr]);

  const copy = async (text: string, done: string) => {
    if (await copyText(text)) toasts.success(done);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };

  if (hidden) {
    return (
      <section className={styles.panel} aria-label={t`Share link`}>
        <p className={styles.hiddenNote}>{t`The link is hidden.`}</p>
        <Button onClick={() => { setHidden(false); setSecondsLeft(null); }}>
          <Eye size={16} aria-hidden />
          {t`Show link`}
        </Button>
      </section>
    );
  }

  return (
    <section className={styles.panel} aria-label={t`Share link`}>
      <div className={styles.linkRow}>
        <input className={styles.link} readOnly value={url} aria-label={t`Share link`} onFocus={(e) => e.target.select()} />
        <Button variant="primary" onClick={() => copy(url, t`Link copied`)}>
          <Copy size={16} aria-hidden />
          {t`Copy link`}
        </Button>
      </div>
      {encrypted && (
        <p className={styles.encrypted}>
          <KeyRound size={16} aria-hidden />
          {t`End-to-end encrypted: the key is the part of the link after #, which never reaches the server. Share the whole link; without it nobody can read the text, and a lost link cannot be recovered.`}
        </p>
      )}
      <div className={styles.actions}>
        {rawUrl && (
          <Button onClick={() => copy(rawUrl, t`Raw link copied`)}>
            <FileCode size={16} aria-hidden />
            {t`Copy raw link`}
          </Button>
        )}
        <Button aria-expanded={showQr} onClick={() => setShowQr((shown) => !shown)}>
          <QrIcon size={16} aria-hidden />
          {showQr ? t`Hide QR code` : t`QR code`}
        </Button>
        <Button onClick={() => setHidden(true)}>
          <EyeOff size={16} aria-hidden />
          {t`Hide link`}
        </Button>
      </div>
      {showQr && (
        <div ref={qrBlock} className={styles.qr}>
          <QrCode data={url} label={t`QR code of the share link`} onReady={onQrReady} />
          <Button size="small" disabled={!qr} onClick={() => void qr?.download({ name: `qr-${name}`, extension: 'png' })}>
            <Download size={15} aria-hidden />
            {t`Download QR code`}
          </Button>
        </div>
      )}
      {secondsLeft !== null && (
        <p className={styles.countdown} aria-live="off">
          {t`Link will be hidden in ${secondsLeft} seconds`}{' '}
          <button type="button" className={styles.keep} onClick={() => setSecondsLeft(null)}>
            {t`Keep it visible`}
          </button>
        </p>
      )}
    </section>
  );
}
