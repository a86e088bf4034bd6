import { shallowEqual, useSelector } from '@xstate/react';
import { useAppActors } from './actors';
import { roleOf } from './permissions';

/** Who is signed in, derived from the auth machine's state and tags. */
export function useAuth() {
  const { auth } = useAppActors();
  return useSelector(auth, (snapshot) => ({
    role: roleOf(snapshot),
    busy: snapshot.hasTag('busy'),
    username: snapshot.context.username,
    keyName: snapshot.context.keyName,
    permissions: snapshot.context.permissions,
    basicPath: snapshot.context.basicPath,
    loginError: snapshot.context.loginError,
    /** Set while a login waits for its second step. */
    secondStep: snapshot.context.secondStep,
    prompt: snapshot.context.prompt,
    hasAdminToken: Boolean(snapshot.context.adminToken),
    send: auth.send,
  }), shallowEqual);
}
