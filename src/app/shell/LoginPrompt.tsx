import { useLingui } from '@lingui/react/macro';
import { Dialog } from '../../components/Dialog';
import { useAuth } from '../use-auth';
import { ConnectedLoginForm } from './ConnectedLoginForm';

/** Opens when the auth machine says the session or key stopped working; a login closes it. */
export default function LoginPrompt() {
  const { t } = useLingui();
  const { prompt, send } = useAuth();
  const reason =
    prompt === 'token_expired' ? t`Admin session expired, please log in again` : t`API key invalid or expired`;
  return (
    <Dialog
      open={prompt !== undefined}
      onOpenChange={(open) => !open && send({ type: 'auth.prompt.close' })}
      title={t`Please log in again`}
      description={reason}
    >
      <ConnectedLoginForm />
    </Dialog>
  );
}
