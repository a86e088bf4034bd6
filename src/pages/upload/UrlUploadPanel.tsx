import { useLingui } from '@lingui/react/macro';
import { Link2, Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { asRequestFailure } from '../../../contract/envelope';
import { sourceUrlSchema, type UrlInfo } from '../../../contract/url-upload';
import type { ShareUploadPayload } from '../../../contract/transfer';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { getUrlInfo } from '../../lib/api/url-upload';
import { formatBytes } from '../../lib/format';
import { ShareOptionsFields } from './ShareOptionsFields';
import { shareOptionsFor } from './upload-options';
import { useUploadLimit } from './useUploadLimit';
import styles from './Upload.module.css';
import type { useUploadForm } from './useUploadForm';

/** A file from a web address: check it, then the transfer engine downloads it and uploads it as a share. */
export function UrlUploadPanel({ form }: { form: ReturnType<typeof useUploadForm> }) {
  const { t } = useLingui();
  const [url, setUrl] = useState('');
  const [info, setInfo] = useState<UrlInfo>();
  const [filename, setFilename] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string>();
  const limit = useUploadLimit();
  // Known before anything is downloaded: a source over the limit cannot be uploaded.
  const tooBig = info ? limit.problem(filename.trim() || info.filename, info.size) : undefined;

  const check = async () => {
    if (!v.safeParse(sourceUrlSchema, url).success) return setError(t`Enter a valid http or https URL`);
    setChecking(true);
    setError(undefined);
    setInfo(undefined);
    try {
      const found = await getUrlInfo(url.trim());
      setInfo(found);
      setFilename(found.filename);
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setChecking(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!info) return void check();
    if (tooBig) return;
    const problem = form.optionsProblem(1);
    if (problem) return setError(problem);
    setError(undefined);
    const payload: ShareUploadPayload = {
      kind: 'shareUpload',
      url: info.url,
      filename: filename.trim() || info.filename,
      mimetype: info.contentType,
      ...(form.selectedConfig && { storageConfigId: form.selectedConfig }),
      options: shareOptionsFor(form.values, 1),
    };
    form.start([{ id: crypto.randomUUID(), type: 'upload', label: payload.filename ?? info.filename, payload }]);
    setInfo(undefined);
    setUrl('');
  };

  return (
    <form onSubmit={submit} noValidate className={styles.form}>
      <div className={styles.urlRow}>
        <Field label={t`File URL`} hint={t`An http or https address of the file to upload`}>
          <input
            name="url"
            type="url"
            inputMode="url"
            placeholder="https://example.com/file.zip"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setInfo(undefined);
            }}
          />
        </Field>
        <Button onClick={check} disabled={checking || !url.trim()}>
          <Search size={16} aria-hidden />
          {checking ? t`Checking…` : t`Check URL`}
        </Button>
      </div>
      {(error ?? tooBig) && (
        <p className="form-error" role="alert">
          {error ?? tooBig}
        </p>
      )}
      {info && (
        <>
          <dl className={styles.urlInfo} aria-label={t`File found at the URL`}>
            <dt>{t`Size`}</dt>
            <dd>{info.size === null ? t`Unknown` : formatBytes(info.size)}</dd>
            <dt>{t`Type`}</dt>
            <dd className="mono">{info.contentType}</dd>
            <dt>{t`Download`}</dt>
            <dd>{info.corsAllowed ? t`Directly from the source` : t`Through this server (the source does not allow direct access)`}</dd>
          </dl>
          <Field label={t`File name`}>
            <input name="filename" value={filename} onChange={(e) => setFilename(e.target.value)} />
          </Field>
          <ShareOptionsFields
            configs={form.configs.data}
            configId={form.selectedConfig}
            onConfig={form.setConfigId}
            values={form.values}
            onChange={form.setValue}
          />
        </>
      )}
      <div className={styles.submitRow}>
        <Button type="submit" variant="primary" disabled={!info || Boolean(tooBig)}>
          <Link2 size={17} aria-hidden />
          {t`Upload from URL`}
        </Button>
      </div>
    </form>
  );
}
