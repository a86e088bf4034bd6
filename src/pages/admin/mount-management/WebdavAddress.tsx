import { useLingui } from '@lingui/react/macro';
import { Copy } from 'lucide-react';
import { Button } from '../../../components/Button';
import { backendBaseUrl } from '../../../lib/backend-url';
import { copyText } from '../../../lib/clipboard';
import { toasts } from '../../../lib/toast';
import styles from './WebdavAddress.module.css';

/** Where desktop clients connect: the mounts over WebDAV, with how to sign in. */
export function WebdavAddress() {
  const { t } = useLingui();
  const address = `${backendBaseUrl()}/dav/`;
  const copy = async () => {
    if (await copyText(address)) toasts.success(t`WebDAV address copied`);
    else toasts.error(t`The address could not be copied; select it and copy it by hand`);
  };
  return (
    <section className={styles.panel} aria-labelledby="webdav-address-title">
      <h2 id="webdav-address-title" className={styles.title}>
        {t`WebDAV`}
      </h2>
      <p className={styles.text}>
        {t`Connect Finder, Windows Explorer, a file manager or a sync tool to the active mount points at this address. Sign in with the admin name and password, or with an API key that has mount permission as both user name and password (it sees its base path only).`}
      </p>
      <div className={styles.row}>
        <code className={styles.address} data-testid="webdav-address">
          {address}
        </code>
        <Button size="small" onClick={copy}>
          <Copy size={15} aria-hidden />
          {t`Copy WebDAV address`}
        </Button>
      </div>
    </section>
  );
}
