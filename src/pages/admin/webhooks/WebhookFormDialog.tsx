import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, type Webhook, type WebhookEvent, type WebhookFormat, type WebhookWithSecret } from '../../../../contract/webhooks';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createWebhook, updateWebhook } from '../../../lib/api/webhooks';
import { EVENT_LABELS, FORMAT_LABELS } from './event-labels';

interface WebhookFormDialogProps {
  /** The webhook being edited; absent when creating. */
  editing?: Webhook;
  onClose: () => void;
  /** Saved; with the secret when one was made (creation, or a new secret asked for). */
  onSaved: (webhook: Webhook | WebhookWithSecret) => void;
}

export function WebhookFormDialog({ editing, onClose, onSaved }: WebhookFormDialogProps) {
  const { t, i18n } = useLingui();
  const [name, setName] = useState(editing?.name ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [format, setFormat] = useState<WebhookFormat>(editing?.format ?? 'json');
  const [events, setEvents] = useState<ReadonlySet<WebhookEvent>>(new Set(editing?.events ?? []));
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const [rotateSecret, setRotateSecret] = useState(false);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const toggle = (event: WebhookEvent, on: boolean) =>
    setEvents((previous) => {
      const next = new Set(previous);
      if (on) next.add(event);
      else next.delete(event);
      return next;
    });

  const submit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    if (!name.trim()) return setError(t`Please enter a name`);
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setError(t`Enter an http or https address`);
    if (events.size === 0) return setError(t`Choose at least one event`);
    setSaving(true);
    setError(undefined);
    const body = { name: name.trim(), url: url.trim(), format, events: WEBHOOK_EVENTS.filter((event) => events.has(event)), enabled };
    try {
      onSaved(editing ? await updateWebhook(editing.id, { ...body, ...(rotateSecret && { rotateSecret }) }) : await createWebhook(body));
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? t`Edit webhook` : t`Create webhook`}>
      <form onSubmit={submit} noValidate>
        {error && (
          <p className={fieldStyles.error} role="alert">
            {error}
          </p>
        )}
        <Field label={t`Name`}>
          <input name="name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t`URL`} hint={t`Where the server POSTs each event. Private and local addresses need ALLOW_PRIVATE_URLS.`}>
          <input name="url" type="url" className="mono" value={url} spellCheck={false} onChange={(e) => setUrl(e.target.value)} />
        </Field>
        <Field label={t`Format`}>
          <select name="format" value={format} onChange={(e) => setFormat(e.target.value as WebhookFormat)}>
            {WEBHOOK_FORMATS.map((option) => (
              <option key={option} value={option}>
                {i18n._(FORMAT_LABELS[option])}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className={fieldStyles.field}>
          <legend className={fieldStyles.label}>{t`Events`}</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className={fieldStyles.checkbox}>
              <input type="checkbox" name={event} checked={events.has(event)} onChange={(e) => toggle(event, e.target.checked)} />
              {i18n._(EVENT_LABELS[event])} <code>{event}</code>
            </label>
          ))}
        </fieldset>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.checkbox}>
            <input type="checkbox" name="enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            {t`Enabled`}
          </label>
          {editing && (
            <label className={fieldStyles.checkbox}>
              <input type="checkbox" name="rotateSecret" checked={rotateSecret} onChange={(e) => setRotateSecret(e.target.checked)} />
              {t`Make a new signing secret (the old one stops working)`}
            </label>
          )}
        </div>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Create webhook`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
