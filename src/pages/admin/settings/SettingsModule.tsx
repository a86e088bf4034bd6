import { useLingui } from '@lingui/react/macro';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { Notice } from '../../../components/Notice';
import { PageSkeleton } from '../../../components/PageSkeleton';
import { Button } from '../../../components/Button';
import { getSystemSettings } from '../../../lib/api/system';
import { useResource } from '../../../lib/use-resource';
import { AccountForm } from './AccountForm';
import { SystemSettingsForm } from './SystemSettingsForm';
import styles from './Settings.module.css';

export default function SettingsModule({ title }: { title: string }) {
  const { t } = useLingui();
  const settings = useResource(getSystemSettings);
  return (
    <section>
      <ModuleHeader title={title} />
      <div className={styles.grid}>
        <div className={styles.card}>
          <h3>{t`Uploads`}</h3>
          {settings.status === 'error' && (
            <Notice level={2} role="alert" title={t`Settings could not be loaded`} actions={<Button onClick={settings.reload}>{t`Retry`}</Button>}>
              {settings.error.message}
            </Notice>
          )}
          {settings.status === 'loading' && !settings.data && <PageSkeleton lines={3} />}
          {settings.data && <SystemSettingsForm initial={settings.data} />}
        </div>
        <div className={styles.card}>
          <h3>{t`Admin account`}</h3>
          <AccountForm />
        </div>
      </div>
    </section>
  );
}
