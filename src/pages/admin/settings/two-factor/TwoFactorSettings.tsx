import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { ResourceStatus } from '../../../../components/ResourceStatus';
import { getTwoFactorStatus } from '../../../../lib/api/two-factor';
import { useResource } from '../../../../lib/use-resource';
import { PasskeyList } from './PasskeyList';
import { RecoveryCodes, RegenerateRecoveryCodes } from './RecoveryCodes';
import { TotpEnrolment } from './TotpEnrolment';
import { TurnOffForm } from './TurnOffForm';

/** The admin's second factor: status, the authenticator app, recovery codes, passkeys, and turning it off. */
export function TwoFactorSettings() {
  const { t } = useLingui();
  const status = useResource(getTwoFactorStatus);
  // Recovery codes are shown once, right after the answer that made them.
  const [shownCodes, setShownCodes] = useState<string[]>();
  const enrolled = (codes: string[] | null) => {
    if (codes) setShownCodes(codes);
    status.reload();
  };

  return (
    <>
      <ResourceStatus resource={status} errorTitle={t`Two-factor settings could not be loaded`} lines={3} />
      {status.data && (
        <>
          <p role="status">{status.data.enabled ? t`Two-factor sign-in is on.` : t`Two-factor sign-in is off: the password alone logs in.`}</p>
          {shownCodes && <RecoveryCodes codes={shownCodes} onDone={() => setShownCodes(undefined)} />}
          <h4>{t`Authenticator app`}</h4>
          {status.data.totp ? <p>{t`An authenticator app is set up.`}</p> : <TotpEnrolment onEnrolled={enrolled} />}
          <h4>{t`Passkeys`}</h4>
          <PasskeyList passkeys={status.data.passkeys} removable={status.data.totp || status.data.passkeys.length > 1} onChanged={enrolled} />
          {status.data.enabled && (
            <>
              <h4>{t`Recovery codes`}</h4>
              <RegenerateRecoveryCodes left={status.data.recoveryCodesLeft} onMade={enrolled} />
              <h4>{t`Turn off`}</h4>
              <TurnOffForm onTurnedOff={() => { setShownCodes(undefined); status.reload(); }} />
            </>
          )}
        </>
      )}
    </>
  );
}
