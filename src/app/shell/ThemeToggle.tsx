import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Monitor, Moon, Sun } from 'lucide-react';
import type { ThemeMode } from '../../../machines/theme.machine';
import { Button } from '../../components/Button';
import { useAppActors } from '../actors';

const ICONS = { auto: Monitor, light: Sun, dark: Moon } as const;

export function ThemeToggle() {
  const { t } = useLingui();
  const { theme } = useAppActors();
  const mode = useSelector(theme, (snapshot) => snapshot.value as ThemeMode | 'starting');
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
      onClick={() => theme.send({ type: 'theme.toggle' })}
    >
      <Icon size={19} aria-hidden />
    </Button>
  );
}
