import { useLingui } from '@lingui/react/macro';
import { useEffect, useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { PasteDetail, UpdatePasteRequest } from '../../../contract/pastes';
import { slugProblem } from '../../../contract/slugs';
import { getPasteDetail, updatePaste } from '../../lib/api/pastes';
import { Button } from '../Button';
import { Dialog, dialogStyles } from '../Dialog';
import { Field } from '../Field';
import { PageSkeleton } from '../PageSkeleton';
import styles from './PasteEditDialog.module.css';

interface PasteEditDialogProps {
  id: string;
  onClose: () => void;
  onSaved: (paste: PasteDetail) => void;
}

/** datetime-local value in the reader's time zone, or empty for never. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** Edits a paste the viewer may change: content, remark, slug, expiry, max views, password. */
export function PasteEditDialog({ id, onClose, onSaved }: PasteEditDialogProps) {
  const { t } = useLingui();
  const [paste, setPaste] = useState<PasteDetail>();
  const [loadError, setLoadError] = useState<string>();
  const [content, setContent] = useState('');
  const [remark, setRemark] = useState('');
  const [slug, setSlug] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [maxViews, setMaxViews] = useState('0');
  const [passwordAction, setPasswordAction] = useState<'keep' | 'set' | 'clear'>('keep');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    getPasteDetail(id).then(
      (detail) => {
        setPaste(detail);
        setContent(detail.content);
        setRemark(detail.remark ?? '');
        setSlug(detail.slug);
        setExpiresAt(toLocalInput(detail.expiresAt));
        setMaxViews(String(detail.maxViews));
      },
      (failure: unknown) => setLoadError(asRequestFailure(failure).message),
    );
  }, [id]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!paste) return;
    if (!content.trim()) return setError(t`Share content must not be empty`);
    if (slugProblem(slug.trim())) return setError(t`Only letters, digits, hyphen and underscore, at most 50 characters`);
    if (!/^\d+$/.test(maxViews.trim())) return setError(t`Enter a whole number, 0 or more`);
    if (passwordAction === 'set' && !password) return setError(t`Enter the new password`);
    const expiry = expiresAt ? new Date(expiresAt) : null;
    if (expiry && expiry.getTime() <= Date.now()) return setError(t`The expiry time must be in the future`);
    const changes: UpdatePasteRequest = {
      content,
      remark: remark.trim(),
      maxViews: Number(maxViews),
      expiresAt: expiry ? expiry.toISOString() : null,
      ...(slug.trim() !== paste.slug && { slug: slug.trim() }),
      ...(passwordAction === 'set' && { password }),
      ...(passwordAction === 'clear' && { password: null }),
    };
    setSaving(true);
    setError(undefined);
    try {
      onSaved(await updatePaste(paste.id, changes));
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Edit share`}>
      {loadError && (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      )}
      {!paste && !loadError && <PageSkeleton lines={5} />}
      {paste && (
        <form onSubmit={submit} noValidate>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <Field label={t`Content`}>
            <textarea name="content" className={styles.content} value={content} onChange={(e) => setContent(e.target.value)} />
          </Field>
          <Field label={t`Remark`}>
            <input name="remark" maxLength={500} value={remark} onChange={(e) => setRemark(e.target.value)} />
          </Field>
          <Field label={t`Link suffix`}>
            <input name="slug" className="mono" value={slug} onChange={(e) => setSlug(e.target.value)} />
          </Field>
          <div className={styles.row}>
            <Field label={t`Expires at`} hint={t`Empty means never`}>
              <input name="expiresAt" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
            </Field>
            <Field label={t`Max views`} hint={t`0 means unlimited`}>
              <input name="maxViews" type="number" min={0} step={1} value={maxViews} onChange={(e) => setMaxViews(e.target.value)} />
            </Field>
          </div>
          <Field label={t`Password`}>
            <select name="passwordAction" value={passwordAction} onChange={(e) => setPasswordAction(e.target.value as typeof passwordAction)}>
              <option value="keep">{paste.hasPassword ? t`Keep the current password` : t`No password`}</option>
              <option value="set">{paste.hasPassword ? t`Set a new password` : t`Set a password`}</option>
              {paste.hasPassword && <option value="clear">{t`Remove the password`}</option>}
            </select>
          </Field>
          {passwordAction === 'set' && (
            <Field label={t`New password`}>
              <input name="newPassword" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          )}
          <div className={dialogStyles.actions}>
            <Button onClick={onClose}>{t`Cancel`}</Button>
            <Button type="submit" variant="primary" disabled={saving}>
              {saving ? t`Saving…` : t`Save changes`}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
