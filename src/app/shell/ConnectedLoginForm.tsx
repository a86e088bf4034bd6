import { useAuth } from '../use-auth';
import { LoginForm } from '../../components/login-form/LoginForm';

/** The login form wired to the auth machine: it only sends events and renders machine state. */
export function ConnectedLoginForm() {
  const { busy, loginError, send } = useAuth();
  return (
    <LoginForm
      busy={busy}
      serverError={loginError}
      onAdminLogin={(username, password) => send({ type: 'auth.login.admin', username, password })}
      onApiKeyLogin={(apiKey) => send({ type: 'auth.login.apiKey', apiKey })}
    />
  );
}
