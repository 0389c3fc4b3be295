/** Small inline icons (no icon font, nothing remote). Always paired with text; aria-hidden. */
const base = {
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.6,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export const IconInfo = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="6.3" />
    <path d="M8 7.2v4M8 4.8v.1" />
  </svg>
);
export const IconWarning = () => (
  <svg {...base}>
    <path d="M8 1.8 15 14H1z" />
    <path d="M8 6.2v3.6M8 11.8v.1" />
  </svg>
);
export const IconDanger = () => (
  <svg {...base}>
    <path d="M5.2 1.5h5.6l4 4v5.6l-4 4H5.2l-4-4V5.5z" />
    <path d="M8 4.6v4.2M8 11.2v.1" />
  </svg>
);
export const IconCheck = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="6.3" />
    <path d="m5.2 8.2 2 2 3.8-4.2" />
  </svg>
);
export const IconMinus = () => (
  <svg {...base}>
    <circle cx="8" cy="8" r="6.3" />
    <path d="M5 8h6" />
  </svg>
);
export const IconLock = () => (
  <svg {...base}>
    <rect x="3" y="7" width="10" height="7.5" rx="1.2" />
    <path d="M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2" />
  </svg>
);
