import { useLingui } from '@lingui/react/macro';
import { CheckCircle2, CircleAlert, HardDrive, Pencil, Plus, Star, Trash2, Wifi } from 'lucide-react';
import { useState } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import type { StorageConfig, StorageTestResult, StorageTestStep, StorageType } from '../../../../contract/storage';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Dialog } from '../../../components/Dialog';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { ProgressBar } from '../../../components/ProgressBar';
import { deleteStorageConfig, listStorageConfigs, setDefaultStorageConfig, testStorageConfig } from '../../../lib/api/storage-configs';
import { formatBytes } from '../../../lib/format';
import { toasts } from '../../../lib/toast';
import { useResource } from '../../../lib/use-resource';
import styles from './StorageConfig.module.css';
import { StorageConfigForm } from './StorageConfigForm';
import { useStorageName } from '../../../lib/use-storage-name';

type Editing = { mode: 'create' } | { mode: 'edit'; config: StorageConfig } | undefined;

export default function StorageConfigModule({ title }: { title: string }) {
  const { t } = useLingui();
  const storageName = useStorageName();
  const configs = useResource(listStorageConfigs);
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<StorageConfig>();
  const [testing, setTesting] = useState<string>();
  const [report, setReport] = useState<{ config: StorageConfig; result: StorageTestResult }>();

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      toasts.success(done);
      configs.reload();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    }
  };

  const test = async (config: StorageConfig) => {
    setTesting(config.id);
    try {
      setReport({ config, result: await testStorageConfig(config.id) });
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setTesting(undefined);
    }
  };

  const stepNames: Record<StorageTestStep, string> = {
    connect: t`Connect`,
    list: t`List the folder`,
    write: t`Write a test file`,
    read: t`Read it back`,
    delete: t`Delete it`,
  };
  const typeNames: Record<Exclude<StorageType, 'S3'>, string> = {
    LOCAL: t`Local disk`,
    WEBDAV: t`WebDAV`,
    SFTP: t`SFTP`,
    FTP: t`FTP`,
  };

  // What a browser's upload needs beyond the steps above (which already say read and write).
  const checkNames: Partial<Record<keyof StorageTestResult['checks'], string>> = {
    cors: t`CORS (ETag exposed)`,
    presignedPut: t`Presigned upload`,
  };

  return (
    <section>
      <ModuleHeader
        title={title}
        description={t`Where uploaded files are kept: this server's disk, any S3-compatible service, or a WebDAV, SFTP or FTP server.`}
        actions={
          <Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>
            <Plus size={17} aria-hidden />
            {t`Add storage`}
          </Button>
        }
      />
      <ResourceStatus resource={configs} errorTitle={t`The storage list could not be loaded`} />
      <ul className={styles.grid}>
        {configs.data?.map((config) => {
          const percent = config.total_storage_bytes ? (config.used_storage_bytes / config.total_storage_bytes) * 100 : null;
          const name = storageName(config.name, config.provider_type);
          return (
            <li key={config.id} className={styles.card} data-config-name={config.name}>
              <div className={styles.cardHead}>
                <HardDrive size={20} aria-hidden />
                <h3 className={styles.cardTitle}>{name}</h3>
                {config.is_default && (
                  <span className={styles.badge}>
                    <Star size={12} aria-hidden /> {t`Default`}
                  </span>
                )}
              </div>
              <dl className={styles.facts}>
                <dt>{t`Type`}</dt>
                <dd>{config.storage_type === 'S3' ? config.provider_type : typeNames[config.storage_type]}</dd>
                {config.host && (
                  <>
                    <dt>{t`Host`}</dt>
                    <dd className="mono">{config.port ? `${config.host}:${config.port}` : config.host}</dd>
                  </>
                )}
                {config.bucket_name && (
                  <>
                    <dt>{t`Bucket`}</dt>
                    <dd className="mono">{config.bucket_name}</dd>
                  </>
                )}
                {config.endpoint_url && (
                  <>
                    <dt>{t`Endpoint`}</dt>
                    <dd className="mono">{config.endpoint_url}</dd>
                  </>
                )}
                <dt>{t`Files`}</dt>
                <dd>{config.file_count}</dd>
                <dt>{t`API keys`}</dt>
                <dd>{config.is_public ? t`Allowed` : t`Admins only`}</dd>
              </dl>
              <div className={styles.usage}>
                <span>
                  {config.total_storage_bytes
                    ? t`${formatBytes(config.used_storage_bytes)} of ${formatBytes(config.total_storage_bytes)} used`
                    : t`${formatBytes(config.used_storage_bytes)} used, no quota`}
                </span>
                {percent !== null && <ProgressBar value={percent} label={t`Storage used by ${name}`} tone={percent > 90 ? 'danger' : 'accent'} />}
              </div>
              <div className={styles.actions}>
                <Button size="small" disabled={testing === config.id} onClick={() => test(config)}>
                  <Wifi size={15} aria-hidden />
                  {testing === config.id ? t`Testing…` : t`Test`}
                </Button>
                {!config.is_default && (
                  <Button size="small" onClick={() => act(() => setDefaultStorageConfig(config.id), t`Default storage changed`)}>
                    {t`Make default`}
                  </Button>
                )}
                <Button size="small" aria-label={t`Edit ${name}`} onClick={() => setEditing({ mode: 'edit', config })}>
                  <Pencil size={15} aria-hidden />
                </Button>
                <Button size="small" variant="ghost" aria-label={t`Delete ${name}`} onClick={() => setDeleting(config)}>
                  <Trash2 size={15} aria-hidden />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>

      {editing && (
        <StorageConfigForm
          editing={editing.mode === 'edit' ? editing.config : undefined}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            toasts.success(t`Storage saved`);
            configs.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t`Delete this storage?`}
        description={t`"${deleting ? storageName(deleting.name, deleting.provider_type) : ''}" is removed from Clipstash; the files in it stay where they are. Storage still used by shares cannot be deleted.`}
        confirmLabel={t`Delete`}
        onConfirm={() => {
          const target = deleting;
          setDeleting(undefined);
          if (target) void act(() => deleteStorageConfig(target.id), t`Storage deleted`);
        }}
      />
      <Dialog
        open={report !== undefined}
        onOpenChange={(open) => !open && setReport(undefined)}
        title={t`Test of ${report ? storageName(report.config.name, report.config.provider_type) : ''}`}
        description={report?.result.ok ? t`Everything works.` : t`Some checks failed; see below.`}
      >
        <ol className={styles.checks} aria-label={t`Steps`}>
          {report?.result.steps.map((step) => (
            <li key={step.step} data-step={step.step} data-ok={step.ok}>
              {step.ok ? <CheckCircle2 size={18} aria-hidden className={styles.ok} /> : <CircleAlert size={18} aria-hidden className={styles.bad} />}
              <div>
                <strong>
                  {stepNames[step.step]}: {step.ok ? t`passed` : t`failed`}
                </strong>
                <p>{step.message}</p>
              </div>
            </li>
          ))}
        </ol>
        <ul className={styles.checks} aria-label={t`Checks`}>
          {report &&
            (Object.keys(checkNames) as (keyof StorageTestResult['checks'])[]).map((name) => {
              const check = report.result.checks[name];
              return (
                <li key={name} data-check={name} data-ok={check.ok}>
                  {check.ok ? <CheckCircle2 size={18} aria-hidden className={styles.ok} /> : <CircleAlert size={18} aria-hidden className={styles.bad} />}
                  <div>
                    <strong>
                      {checkNames[name] ?? name}: {check.ok ? t`passed` : t`failed`}
                    </strong>
                    <p>{check.message}</p>
                  </div>
                </li>
              );
            })}
        </ul>
      </Dialog>
    </section>
  );
}
