import { create } from 'zustand';

type NetworkState = { browserOffline: boolean };

const useNetworkStore = create<NetworkState>()(() => ({
  browserOffline: typeof navigator !== 'undefined' && navigator.onLine === false,
}));

export const useBrowserOffline = () => useNetworkStore((s) => s.browserOffline);

export function browserWentOffline() {
  useNetworkStore.setState({ browserOffline: true });
}

export function browserCameOnline() {
  useNetworkStore.setState({ browserOffline: false });
}
