import { useLingui } from '@lingui/react/macro';
import {
  FileText,
  Folder,
  HardDrive,
  Inbox,
  Activity,
  KeyRound,
  LayoutDashboard,
  LogOut,
  Network,
  Settings,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ADMIN_MODULE_TITLES, type AdminModule } from '../../app/admin-modules';
import { useAuth } from '../../app/use-auth';
import { Button } from '../../components/Button';
import styles from './Admin.module.css';
import { useScrollEdges } from './use-scroll-edges';

const ICONS: Record<AdminModule, LucideIcon> = {
  dashboard: LayoutDashboard,
  'text-management': FileText,
  'file-management': Folder,
  'file-requests': Inbox,
  tasks: Activity,
  'storage-config': HardDrive,
  'mount-management': Network,
  'key-management': KeyRound,
  webhooks: Webhook,
  settings: Settings,
};

interface AdminLayoutProps {
  modules: readonly AdminModule[];
  current: AdminModule | undefined;
  children: ReactNode;
}

/** The admin panel for admins, the user panel for API keys: title, who is signed in, the menu. */
export function AdminLayout({ modules, current, children }: AdminLayoutProps) {
  const { t, i18n } = useLingui();
  const { role, username, keyName, send } = useAuth();
  const who = role === 'admin' ? username : keyName;
  const menuRef = useRef<HTMLUListElement>(null);
  // On a narrow screen the menu is a sideways strip: bring the current module to its middle, clear of the fades,
  // and fade the edge past which more modules are hidden.
  useEffect(() => {
    menuRef.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [current]);
  const hidden = useScrollEdges(menuRef);
  return (
    <div className={styles.layout}>
      <aside className={styles.sidebar}>
        <div className={styles.identity}>
          <h1 className={styles.panelTitle}>{role === 'admin' ? t`Admin panel` : t`User panel`}</h1>
          {who && (
            <p className={styles.who}>
              {role === 'admin' ? t`Signed in as ${who}` : t`API key: ${who}`}
            </p>
          )}
        </div>
        <nav className={styles.menuNav} aria-label={role === 'admin' ? t`Admin panel` : t`User panel`}>
          <ul ref={menuRef} className={styles.menu} data-more-before={hidden.start || undefined} data-more-after={hidden.end || undefined}>
            {modules.map((module) => {
              const Icon = ICONS[module];
              return (
                <li key={module}>
                  <Link href={`/admin/${module}`} aria-current={module === current ? 'page' : undefined}>
                    <Icon size={17} aria-hidden />
                    {i18n._(ADMIN_MODULE_TITLES[module])}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <Button variant="ghost" className={styles.logout} onClick={() => send({ type: 'auth.logout' })}>
          <LogOut size={17} aria-hidden />
          {t`Log out`}
        </Button>
      </aside>
      <div className={styles.content}>{children}</div>
    </div>
  );
}
