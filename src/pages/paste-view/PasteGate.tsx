import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Eye from 'lucide-react/icons/eye';
import FileText from 'lucide-react/icons/file-text';
import KeyRound from 'lucide-react/icons/key-round';
import LockOpen from 'lucide-react/icons/lock-open';
import { useState } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { SharePeek } from '../../../contract/share-peek';
import { Button } from '../../components/Button';
import { PasswordGate } from '../../components/PasswordGate';
import { viewsLeftText } from '../../components/views-left';
import { formatBytes, formatDateTime } from '../../lib/format';
import styles from './PasteView.module.css';

interface PasteGateProps {
  peek: SharePeek;
  /** Opens the paste, spending a view. */
  onShow: () => Promise<void>;
  /** Opens a protected paste with its password, spending a view. */
  onPassword: (password: string) => Promise<void>;
}

/**
 * A paste with a view limit, before it is opened: what it is, from the peek that spent nothing, and the one
 * deliberate step that spends a view (Show, or the password form of a protected paste).
 */
export function PasteGate({ peek, onShow, onPassword }: PasteGateProps) {
  const { t } = useLingui();
  if (peek.requiresPassword) {
    return (
      <PasswordGate title={t`This share is protected`} onPassword={onPassword}>
        <PeekFacts peek={peek} />
      </PasswordGate>
    );
  }
  return <ShowGate peek={peek} onShow={onShow} />;
}

function ShowGate({ peek, onShow }: { peek: SharePeek; onShow: () => Promise<void> }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const show = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onShow();
    } catch (failure) {
      setError(asRequestFailure(failure).message);
      setBusy(false);
    }
  };
  return (
    <section className={styles.gate}>
      <Eye size={28} aria-hidden className={styles.gateIcon} />
      <h1>{t`A shared text is waiting for you`}</h1>
      <PeekFacts peek={peek} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <Button variant="primary" disabled={busy} onClick={() => void show()}>
        <Eye size={16} aria-hidden />
        {busy ? t`Opening…` : t`Show`}
      </Button>
    </section>
  );
}

/** Views left, size, type, encryption and expiry, and what opening the paste spends. */
function PeekFacts({ peek }: { peek: SharePeek }) {
  const { t, i18n } = useLingui();
  const left = peek.viewsLeft ?? 0;
  const size = formatBytes(peek.size);
  return (
    <>
      <ul className={styles.facts} aria-label={t`About this share`}>
        <li>
          <Eye size={15} aria-hidden /> {viewsLeftText(left)}
        </li>
        <li>
          <FileText size={15} aria-hidden /> {t`Markdown text, ${size}`}
        </li>
        <li>
          {peek.encryption ? (
            <>
              <KeyRound size={15} aria-hidden /> {t`End-to-end encrypted`}
            </>
          ) : (
            <>
              <LockOpen size={15} aria-hidden /> {t`Not encrypted`}
            </>
          )}
        </li>
        {peek.expiresAt && (
          <li>
            <Clock size={15} aria-hidden /> {t`Expires ${formatDateTime(peek.expiresAt, i18n.locale)}`}
          </li>
        )}
      </ul>
      <p className={left === 1 ? styles.lastView : styles.gateText}>
        {left === 1 ? t`This is the last view: after this the paste is gone.` : t`Opening it spends one of its views.`}
      </p>
    </>
  );
}
