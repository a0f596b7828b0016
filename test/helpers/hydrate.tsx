import { act } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { vi } from 'vitest';

/**
 * Hydrates `html` with `element` in a container of the page; what React reported meanwhile, and the root.
 * `beforeHydrating` gets the server's markup in the page first, as a person does before the scripts have run.
 */
export async function hydrate(
  html: string,
  element: ReactElement,
  beforeHydrating: (container: HTMLElement) => void = () => {},
) {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  beforeHydrating(container);
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  const recoverable = vi.fn();
  let root!: ReturnType<typeof hydrateRoot>;
  await act(async () => {
    root = hydrateRoot(container, element, { onRecoverableError: recoverable });
  });
  const reported = [...recoverable.mock.calls, ...errors.mock.calls];
  errors.mockRestore();
  return { container, root, reported };
}
