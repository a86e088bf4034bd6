import { shallowEqual, useSelector } from '@xstate/react';
import { useAppActors } from './actors';

/** Who is signed in, derived from the auth machine's state and tags. */
export function useAuth() {
  const { auth } = useAppActors();
  return useSelector(auth, (snapshot) => ({
    role: snapshot.matches('admin') ? ('admin' as const) : snapshot.matches('apiKey') ? ('apiKey' as const) : null,
    busy: snapshot.hasTag('busy'),
    username: snapshot.context.username,
    keyName: snapshot.context.keyName,
    permissions: snapshot.context.permissions,
    basicPath: snapshot.context.basicPath,
    loginError: snapshot.context.loginError,
    prompt: snapshot.context.prompt,
    hasAdminToken: Boolean(snapshot.context.adminToken),
    send: auth.send,
  }), shallowEqual);
}
