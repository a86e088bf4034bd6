import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { asRequestFailure } from '../../../../../contract/envelope';
import { Button } from '../../../../components/Button';
import { copyText } from '../../../../lib/clipboard';
import { replaceRecoveryCodes } from '../../../../lib/api/two-factor';
import { toasts } from '../../../../lib/toast';
import styles from '../Settings.module.css';

/** Recovery codes just made: shown this once, to copy or write down. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  return (
    <div className={styles.codes}>
      <p>{t`Your recovery codes. Each logs in once when the authenticator app or passkey is not at hand. They are shown only now: keep them somewhere safe.`}</p>
      <ol aria-label={t`Recovery codes`} className="mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <Button onClick={() => void copyText(codes.join('\n')).then((copied) => copied && toasts.success(t`Recovery codes copied`))}>
        {t`Copy codes`}
      </Button>{' '}
      <Button variant="primary" onClick={onDone}>
        {t`I have saved them`}
      </Button>
    </div>
  );
}

/** How many codes are left, and new ones in place of all of them. */
export function RegenerateRecoveryCodes({ left, onMade }: { left: number; onMade: (codes: string[]) => void }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true);
    try {
      onMade((await replaceRecoveryCodes()).recoveryCodes);
    } catch (failure) {
      toasts.error(asRequestFailure(failure).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>{t`${left} of 10 recovery codes left.`}</p>
      <Button onClick={() => void make()} disabled={busy}>
        {t`Make new recovery codes`}
      </Button>
    </>
  );
}
