import type { PresignGetOptions, PresignPutOptions } from '../driver';
import { expiryFrom, signLocalGroupUrl, signLocalUrl, type LocalGetGrant, type LocalPutGrant } from '../local-urls';
import { pathOf, type LocalContext } from './root';

type SignedByStorage = 'configId' | 'key' | 'expires';
/** What a URL grants beyond its config, key and expiry (which the storage fills in). */
type GrantTerms = Omit<LocalPutGrant, SignedByStorage> | Omit<LocalGetGrant, SignedByStorage>;

/** LOCAL's presigned URLs point back at this server, which verifies their signature. */
export function signKeyUrl(
  context: LocalContext,
  key: string,
  presign: { baseUrl: string; expiresInSeconds: number },
  terms: GrantTerms,
): string {
  pathOf(context, key);
  const expires = expiryFrom(context.now(), presign.expiresInSeconds);
  return signLocalUrl(context.secrets, presign.baseUrl, { ...terms, configId: context.configId, key, expires });
}

export async function presignPut(context: LocalContext, key: string, presign: PresignPutOptions): Promise<string> {
  return signKeyUrl(context, key, presign, { method: 'PUT', size: presign.size });
}

export async function presignGet(context: LocalContext, key: string, presign: PresignGetOptions): Promise<string> {
  const { disposition, filename, contentType } = presign;
  return signKeyUrl(context, key, presign, { method: 'GET', disposition, filename, contentType });
}

export async function presignGroupGet(
  context: LocalContext,
  files: { key: string; size: number }[],
  presign: { expiresInSeconds: number; baseUrl: string },
): Promise<string> {
  for (const { key } of files) pathOf(context, key);
  return signLocalGroupUrl(context.secrets, presign.baseUrl, {
    method: 'GET-GROUP',
    configId: context.configId,
    files,
    expires: expiryFrom(context.now(), presign.expiresInSeconds),
  });
}
