import { useAuth } from '../use-auth';
import { LoginForm } from '../../components/login-form/LoginForm';
import { SecondStepForm } from '../../components/login-form/SecondStepForm';

/** The login form wired to the auth machine: it only sends events and renders machine state. */
export function ConnectedLoginForm() {
  const { busy, loginError, secondStep, send } = useAuth();
  if (secondStep) {
    return (
      <SecondStepForm
        busy={busy}
        methods={secondStep.methods}
        serverError={loginError}
        onCode={(code) => send({ type: 'auth.secondStep.code', code })}
        onPasskey={() => send({ type: 'auth.secondStep.passkey' })}
        onCancel={() => send({ type: 'auth.secondStep.cancel' })}
      />
    );
  }
  return (
    <LoginForm
      busy={busy}
      serverError={loginError}
      onAdminLogin={(username, password) => send({ type: 'auth.login.admin', username, password })}
      onApiKeyLogin={(apiKey) => send({ type: 'auth.login.apiKey', apiKey })}
    />
  );
}
