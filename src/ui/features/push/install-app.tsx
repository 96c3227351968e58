import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { InstallIcon } from '../../components/ui/icons.tsx';

type InstallPrompt = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }> };

// The browser offers installing once, early (often before the first render): keep its event from the start.
let offered: InstallPrompt | null = null;
const listeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    offered = e as InstallPrompt;
    listeners.forEach((fn) => fn());
  });
  window.addEventListener('appinstalled', () => {
    offered = null;
    listeners.forEach((fn) => fn());
  });
}

/** U17: "Install askdock" while the browser offers installing (Chromium); Safari's is Share, Add to Home Screen. */
export function InstallApp() {
  const [prompt, setPrompt] = useState(offered);
  useEffect(() => {
    const update = () => setPrompt(offered);
    listeners.add(update);
    update();
    return () => void listeners.delete(update);
  }, []);
  if (!prompt) return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="btn-icon"
      aria-label="Install askdock"
      title="Install askdock: open it from the Home Screen or the dock, full screen"
      onClick={() => {
        void prompt.prompt().then(() => prompt.userChoice).then(() => {
          offered = null;
          setPrompt(null);
        });
      }}
    >
      <InstallIcon />
    </Button>
  );
}
