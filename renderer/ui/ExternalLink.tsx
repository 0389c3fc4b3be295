import type { ReactNode } from 'react';
import { omni } from '../api/omni';

/**
 * A link to a page outside the app. Main opens it in the OS browser only if its host is on the allow-list
 * (main/security-policy.ts); the app itself never navigates away.
 */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      rel="noopener noreferrer"
      target="_blank"
      onClick={(event) => {
        event.preventDefault();
        void omni().app.openExternal({ url: href });
      }}
    >
      {children}
    </a>
  );
}
