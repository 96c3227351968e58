import type { SVGProps } from 'react';

/** Small line icons drawn in the text colour; decorative (the button around them carries the name). */
function Icon({ children, ...rest }: SVGProps<SVGSVGElement>) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...rest}>
      {children}
    </svg>
  );
}

export const BellIcon = () => (
  <Icon>
    <path d="M4 11V7a4 4 0 0 1 8 0v4l1 1.5H3L4 11Z" />
    <path d="M6.5 14h3" />
  </Icon>
);
export const SunIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="3" />
    <path d="M8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1" />
  </Icon>
);
export const MoonIcon = () => (
  <Icon>
    <path d="M13 9.5A5.5 5.5 0 1 1 6.5 3a4.5 4.5 0 0 0 6.5 6.5Z" />
  </Icon>
);
export const SystemIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="5.5" />
    <path d="M8 2.5v11A5.5 5.5 0 0 0 8 2.5Z" fill="currentColor" />
  </Icon>
);
export const CheckIcon = () => (
  <Icon width="20" height="20">
    <path d="M3.5 8.5 6.5 11.5 12.5 4.5" />
  </Icon>
);
export const InfoIcon = () => (
  <Icon width="20" height="20">
    <circle cx="8" cy="8" r="6" />
    <path d="M8 7.25V11M8 5h.01" />
  </Icon>
);

/** A larger drawing for empty states: a question card above a composer line. */
export const EmptyIllustration = () => (
  <svg width="56" height="56" viewBox="0 0 56 56" fill="none" aria-hidden="true" focusable="false" className="empty-illustration">
    <rect x="6" y="8" width="44" height="28" rx="7" fill="var(--accent-soft)" stroke="var(--accent-line)" />
    <rect x="12" y="15" width="14" height="4" rx="2" fill="var(--accent)" />
    <rect x="12" y="23" width="28" height="3" rx="1.5" fill="var(--accent-line)" />
    <rect x="12" y="29" width="20" height="3" rx="1.5" fill="var(--accent-line)" />
    <rect x="6" y="41" width="44" height="9" rx="4.5" fill="var(--surface-raised)" stroke="var(--border-strong)" />
  </svg>
);
/** U17: a phone with a notification dot (push to this device). */
export const DeviceBellIcon = () => (
  <Icon>
    <rect x="3.5" y="1.75" width="7.5" height="12.5" rx="1.75" />
    <path d="M6.25 11.75h2" />
    <circle cx="12.25" cy="3.75" r="2" fill="currentColor" stroke="none" />
  </Icon>
);
/** U17: a box with an arrow into it (install the app). */
export const InstallIcon = () => (
  <Icon>
    <path d="M8 2v7.5M5 6.75 8 9.75l3-3" />
    <path d="M2.75 10.5v1.75c0 .97.78 1.75 1.75 1.75h7c.97 0 1.75-.78 1.75-1.75V10.5" />
  </Icon>
);
export const PersonIcon = () => (
  <Icon>
    <circle cx="8" cy="5.5" r="2.5" />
    <path d="M3 14c.6-2.6 2.6-4 5-4s4.4 1.4 5 4" />
  </Icon>
);
