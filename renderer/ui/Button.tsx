import type { ComponentProps } from 'react';

export type ButtonVariant = 'default' | 'primary' | 'danger' | 'link';

export function Button({
  variant = 'default',
  className,
  type = 'button',
  ...rest
}: ComponentProps<'button'> & { variant?: ButtonVariant }) {
  const cls = ['btn', variant !== 'default' ? `btn-${variant}` : '', className ?? ''].filter(Boolean).join(' ');
  return <button type={type} className={cls} {...rest} />;
}
