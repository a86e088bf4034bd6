import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { slugProblem } from '../../../contract/slugs';
import { Field } from '../Field';
import { toLocalInput } from './local-time';

/** The settings every share has, pastes and files alike. */
export interface ShareSettings {
  slug: string;
  remark: string | null;
  expiresAt: string | null;
  maxViews: number;
  hasPassword: boolean;
}

/** The same field names as the update requests of pastes and files. */
export interface ShareSettingsChanges {
  remark: string;
  maxViews: number;
  expiresAt: string | null;
  slug?: string;
  password?: string | null;
}

type PasswordAction = 'keep' | 'set' | 'clear';

/** Form state for a share's settings, and the checks that turn it into an update. */
export function useShareSettings(initial: ShareSettings) {
  const { t } = useLingui();
  const [values, setValues] = useState({
    slug: initial.slug,
    remark: initial.remark ?? '',
    expiresAt: toLocalInput(initial.expiresAt),
    maxViews: String(initial.maxViews),
    passwordAction: 'keep' as PasswordAction,
    password: '',
  });
  const update = <K extends keyof typeof values>(field: K, value: (typeof values)[K]) =>
    setValues((previous) => ({ ...previous, [field]: value }));

  /** The update to send, or the first problem in words. */
  const collect = (): { changes: ShareSettingsChanges } | { error: string } => {
    const slug = values.slug.trim();
    if (slugProblem(slug)) return { error: t`Only letters, digits, hyphen and underscore, at most 50 characters` };
    if (!/^\d+$/.test(values.maxViews.trim())) return { error: t`Enter a whole number, 0 or more` };
    if (values.passwordAction === 'set' && !values.password) return { error: t`Enter the new password` };
    const expiry = values.expiresAt ? new Date(values.expiresAt) : null;
    if (expiry && expiry.getTime() <= Date.now()) return { error: t`The expiry time must be in the future` };
    return {
      changes: {
        remark: values.remark.trim(),
        maxViews: Number(values.maxViews),
        expiresAt: expiry ? expiry.toISOString() : null,
        ...(slug !== initial.slug && { slug }),
        ...(values.passwordAction === 'set' && { password: values.password }),
        ...(values.passwordAction === 'clear' && { password: null }),
      },
    };
  };

  return { values, update, collect, hasPassword: initial.hasPassword };
}

export function ShareSettingsFields({ settings }: { settings: ReturnType<typeof useShareSettings> }) {
  const { t } = useLingui();
  const { values, update, hasPassword } = settings;
  return (
    <>
      <Field label={t`Link suffix`}>
        <input name="slug" className="mono" value={values.slug} onChange={(e) => update('slug', e.target.value)} />
      </Field>
      <Field label={t`Remark`}>
        <input name="remark" maxLength={500} value={values.remark} onChange={(e) => update('remark', e.target.value)} />
      </Field>
      <Field label={t`Expires at`} hint={t`Empty means never`}>
        <input name="expiresAt" type="datetime-local" value={values.expiresAt} onChange={(e) => update('expiresAt', e.target.value)} />
      </Field>
      <Field label={t`Max views`} hint={t`0 means unlimited`}>
        <input name="maxViews" type="number" min={0} step={1} value={values.maxViews} onChange={(e) => update('maxViews', e.target.value)} />
      </Field>
      <Field label={t`Password`}>
        <select name="passwordAction" value={values.passwordAction} onChange={(e) => update('passwordAction', e.target.value as PasswordAction)}>
          <option value="keep">{hasPassword ? t`Keep the current password` : t`No password`}</option>
          <option value="set">{hasPassword ? t`Set a new password` : t`Set a password`}</option>
          {hasPassword && <option value="clear">{t`Remove the password`}</option>}
        </select>
      </Field>
      {values.passwordAction === 'set' && (
        <Field label={t`New password`}>
          <input name="newPassword" type="password" autoComplete="new-password" value={values.password} onChange={(e) => update('password', e.target.value)} />
        </Field>
      )}
    </>
  );
}
