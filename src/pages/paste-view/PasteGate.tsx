import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Eye from 'lucide-react/icons/eye';
import FileCode from 'lucide-react/icons/file-code';
import KeyRound from 'lucide-react/icons/key-round';
import { useState, type ReactNode } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { SharePeek } from '../../../contract/share-peek';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PasswordGate } from '../../components/PasswordGate';
import { viewsLeftText } from '../../components/views-left';
import type { DecryptFailure } from '../../lib/crypto/paste-cipher';
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

/** A protected paste without a view limit: the password opens it. */
export function PastePasswordGate({ onPassword }: { onPassword: (password: string) => Promise<void> }) {
  const { t } = useLingui();
  return <PasswordGate title={t`This share is protected`} onPassword={onPassword} />;
}

/** An encrypted paste that this link cannot open; nothing of the payload is shown. */
export function KeyProblem({ problem, actions }: { problem: DecryptFailure; actions: ReactNode }) {
  const { t } = useLingui();
  const wrong = problem === 'wrong_key';
  return (
    <Notice
      role="alert"
      icon={<KeyRound size={32} />}
      title={wrong ? t`The key in this link is wrong` : t`This link is incomplete`}
      actions={actions}
    >
      {wrong
        ? t`This text is end-to-end encrypted, and the key at the end of this link does not open it. Ask the sender for the whole link again.`
        : t`This text is end-to-end encrypted, and its key, the end of the link after “#key=”, is missing or cut short. Ask the sender for the whole link.`}
    </Notice>
  );
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

/** Views left, size, type, end-to-end encryption and expiry, and what opening the paste spends. */
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
          <FileCode size={15} aria-hidden /> {t`Markdown text, ${size}`}
        </li>
        {peek.encryption && (
          <li>
            <KeyRound size={15} aria-hidden /> {t`End-to-end encrypted`}
          </li>
        )}
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
