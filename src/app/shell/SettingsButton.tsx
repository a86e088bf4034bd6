import { useLingui } from '@lingui/react/macro';
import { Settings } from 'lucide-react';
import { useRef, useState, type ComponentType } from 'react';
import { Button } from '../../components/Button';
import { loadWholeCatalog } from '../../lib/i18n';
import { toasts } from '../../lib/toast';
import type { SettingsDialogProps } from './SettingsDialog';

/** The header's gear: this browser's settings, for visitors and signed-in users alike. */
export function SettingsButton() {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const gear = useRef<HTMLButtonElement>(null);
  const [SettingsDialog, setSettingsDialog] = useState<ComponentType<SettingsDialogProps>>();
  // The dialog's code (Radix Dialog) loads at the first click, not with the page, with the whole catalog (a share's
  // page renders with its visitor's catalog, which lacks the dialog's words); offline before it was ever loaded, it
  // cannot be, and the click says so instead of breaking the page.
  const openDialog = () =>
    Promise.all([import('./SettingsDialog'), loadWholeCatalog()]).then(
      ([module]) => {
        setSettingsDialog(() => module.default);
        setOpen(true);
      },
      () => toasts.error(t`Settings could not be loaded, check the network`),
    );
  return (
    <>
      <Button
        ref={gear}
        variant="ghost"
        size="icon"
        aria-label={t`Settings`}
        title={t`Settings`}
        aria-haspopup="dialog"
        onClick={() => void openDialog()}
      >
        <Settings size={19} aria-hidden />
      </Button>
      {SettingsDialog && <SettingsDialog open={open} onOpenChange={setOpen} opener={gear} />}
    </>
  );
}
