import { useLingui } from '@lingui/react/macro';
import { ModuleHeader } from '../../../components/ModuleHeader';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { getSystemSettings } from '../../../lib/api/system';
import { useResource } from '../../../lib/use-resource';
import { AccountForm } from './AccountForm';
import { SystemSettingsForm } from './SystemSettingsForm';
import { TwoFactorSettings } from './two-factor/TwoFactorSettings';
import styles from './Settings.module.css';

export default function SettingsModule({ title }: { title: string }) {
  const { t } = useLingui();
  const settings = useResource(getSystemSettings);
  return (
    <section>
      <ModuleHeader title={title} />
      <div className={styles.grid}>
        <div className={styles.card}>
          <h3>{t`Uploads and expense claims`}</h3>
          <ResourceStatus resource={settings} errorTitle={t`Settings could not be loaded`} lines={3} />
          {settings.data && <SystemSettingsForm initial={settings.data} />}
        </div>
        <div className={styles.card}>
          <h3>{t`Admin account`}</h3>
          <AccountForm />
        </div>
        <div className={styles.card}>
          <h3>{t`Two-factor sign-in`}</h3>
          <TwoFactorSettings />
        </div>
      </div>
    </section>
  );
}
