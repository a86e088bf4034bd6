import { useLingui } from '@lingui/react/macro';
import { Monitor, Moon, Sun } from 'lucide-react';
import type { ThemeMode } from '../../../machines/theme-modes';
import { Button } from '../../components/Button';
import { useActorsLoader, useLoadedActors, useSnapshotValue } from '../actors';
import { storedThemeMode } from '../stored-state';

const ICONS = { auto: Monitor, light: Sun, dark: Moon } as const;

export function ThemeToggle() {
  const { t } = useLingui();
  const loader = useActorsLoader();
  // Until the theme machine has loaded, the stored mode (theme-boot.js applied it) and a click that loads it.
  const mode = useSnapshotValue(useLoadedActors()?.theme, (snapshot) =>
    snapshot ? (snapshot.value as ThemeMode | 'starting') : storedThemeMode(),
  );
  const current = mode === 'starting' ? 'auto' : mode;
  const names: Record<ThemeMode, string> = { auto: t`Auto`, light: t`Light`, dark: t`Dark` };
  const label = t`Theme: ${names[current]} (click to change)`;
  const Icon = ICONS[current];
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      data-theme-mode={current}
      onClick={() => void loader.load().then(({ theme }) => theme.send({ type: 'theme.toggle' }))}
    >
      <Icon size={19} aria-hidden />
    </Button>
  );
}
