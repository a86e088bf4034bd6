import { useLingui } from '@lingui/react/macro';
import { ClipboardList, FolderTree, Home, LogIn, Menu, Shield, Upload, Wallet, X, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../../components/Button';
import { GithubMark } from '../../components/GithubMark';
import { useLoadedActors, useSnapshotValue } from '../actors';
import { principalOf, storedPrincipal } from '../permissions';
import { PRODUCT_NAME, routeAt } from '../routes';
import { readStoredCredentials } from '../stored-state';
import { LanguageSwitcher } from './LanguageSwitcher';
import { navTargetsFor, type NavTarget } from './nav-links';
import { SettingsButton } from './SettingsButton';
import styles from './Shell.module.css';
import { ThemeToggle } from './ThemeToggle';

export const SOURCE_REPOSITORY_URL = 'https://github.com/clipstash/clipstash';

export function Header() {
  const { t } = useLingui();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => setMenuOpen(false), [location]);
  const onVisitorPage = routeAt(location)?.forVisitors === true;
  // Before the auth machine has loaded (a share's page), what the browser stored. Joined: the store compares by value.
  const targets = useSnapshotValue(useLoadedActors()?.auth, (snapshot) =>
    navTargetsFor(snapshot ? principalOf(snapshot) : storedPrincipal(readStoredCredentials()), onVisitorPage).join(' '),
  );

  // The open mobile menu covers the top of the page: Escape or a tap anywhere else closes it.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      // The toggle handles its own clicks; closing here would reopen it on the click that follows.
      if (navRef.current?.contains(target) || toggleRef.current?.contains(target)) return;
      setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [menuOpen]);

  const entries: Record<NavTarget, { href: string; label: string; icon: LucideIcon; active: boolean }> = {
    home: { href: '/', label: t`Home`, icon: Home, active: location === '/' },
    upload: { href: '/upload', label: t`Upload`, icon: Upload, active: location.startsWith('/upload') },
    'mount-explorer': { href: '/mount-explorer', label: t`Mount explorer`, icon: FolderTree, active: location.startsWith('/mount-explorer') },
    expense: { href: '/expense', label: t`Expense claims`, icon: Wallet, active: location.startsWith('/expense') },
    admin: { href: '/admin', label: t`Admin`, icon: Shield, active: location.startsWith('/admin') },
    login: { href: '/admin', label: t`Log in`, icon: LogIn, active: location.startsWith('/admin') },
  };
  const links = (targets.split(' ') as NavTarget[]).map((target) => entries[target]);

  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <Link href="/" className={styles.brand} aria-label={PRODUCT_NAME}>
          <ClipboardList size={22} aria-hidden />
          <span className={styles.brandText}>{PRODUCT_NAME}</span>
        </Link>
        <Button
          ref={toggleRef}
          variant="ghost"
          size="icon"
          className={styles.menuButton}
          aria-expanded={menuOpen}
          aria-controls="main-navigation"
          aria-label={menuOpen ? t`Close menu` : t`Open menu`}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X size={20} aria-hidden /> : <Menu size={20} aria-hidden />}
        </Button>
        <nav ref={navRef} id="main-navigation" className={styles.nav} data-open={menuOpen} aria-label={t`Main`}>
          {links.map(({ href, label, icon: Icon, active }) => (
            // Closing on click too: a link to the current page changes no location.
            <Link key={href} href={href} aria-current={active ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
              <Icon size={17} aria-hidden />
              {label}
            </Link>
          ))}
        </nav>
        <div className={styles.tools}>
          <a
            className={styles.iconLink}
            href={SOURCE_REPOSITORY_URL}
            target="_blank"
            rel="noreferrer noopener"
            aria-label={t`Source code on GitHub`}
            title={t`Source code on GitHub`}
          >
            <GithubMark size={19} />
          </a>
          <LanguageSwitcher />
          <ThemeToggle />
          <SettingsButton />
        </div>
      </div>
    </header>
  );
}
