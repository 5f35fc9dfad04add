import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInFrame } from '../test/frame';
import { frameController } from '../test/story/Frame';
import { Centered, ErrorView, HomeLink, ManageLink, NotFound } from './Views';

describe('Views', () => {
  it('NotFound: the spec’s title, 404 and a link home that navigates inside the widget', async () => {
    const controller = frameController();
    controller.navigate('resellers');
    const { ui } = await renderInFrame(<NotFound />, { controller });
    expect(ui.getByRole('heading', { name: 'This page could not be found' })).toBeTruthy();
    expect(ui.getByText('404').getAttribute('aria-hidden')).toBe('true');
    const home = ui.getByRole('link', { name: 'Back to the home page' });
    // Memory routing: no URL of its own, the click navigates.
    expect(home.getAttribute('href')).toBe('#');
    fireEvent.click(home);
    expect(controller.getState().route.name).toBe('');
  });

  it('HomeLink: a real href in history routing, and a modified click left to the browser', async () => {
    const controller = frameController({ routing: 'history', base: '/checkout/' });
    controller.navigate('resellers');
    const { ui } = await renderInFrame(<HomeLink>Home</HomeLink>, { controller });
    const home = ui.getByRole('link', { name: 'Home' });
    expect(home.getAttribute('href')).toBe('/checkout/');
    // Seen after the widget's handler, before the browser's: a modified click opens a tab.
    let prevented: boolean | null = null;
    const stopNavigation = (e: Event) => {
      prevented = e.defaultPrevented;
      e.preventDefault();
    };
    document.addEventListener('click', stopNavigation);
    fireEvent.click(home, { ctrlKey: true });
    document.removeEventListener('click', stopNavigation);
    expect(prevented).toBe(false);
    expect(controller.getState().route.name).toBe('resellers');
    fireEvent.click(home);
    expect(controller.getState().route.name).toBe('');
    expect(location.pathname).toBe('/checkout/');
  });

  it('ErrorView: names a known failure, and Try again recovers', async () => {
    const controller = frameController();
    controller.fail({ name: 'network', message: 'Failed to fetch' });
    const { ui } = await renderInFrame(<ErrorView />, { controller });
    expect(ui.getByRole('alert').textContent).toContain('Something went wrong');
    expect(ui.getByText('We could not reach the server. Please check your connection.')).toBeTruthy();
    fireEvent.click(ui.getByRole('button', { name: 'Try again' }));
    expect(controller.getState().fatal).toBeNull();
  });

  it('ErrorView: the generic text for a failure it does not know', async () => {
    const controller = frameController();
    controller.fail({ name: 'teapot', message: 'I am a teapot' });
    const { ui } = await renderInFrame(<ErrorView />, { controller });
    expect(ui.getByText('We could not load this part of the checkout. Please try again.')).toBeTruthy();
  });

  it('ManageLink: opens the services view', async () => {
    const controller = frameController();
    const { ui } = await renderInFrame(<ManageLink />, { controller });
    expect(ui.getByText(/Already a customer\?/)).toBeTruthy();
    fireEvent.click(ui.getByRole('link', { name: 'Manage my services' }));
    await waitFor(() => expect(controller.getState().route.query).toEqual({ view: 'services' }));
  });

  it('Centered: its heading takes the focus when the step replaces the one in use', async () => {
    const first = (
      <Centered icon="alert" title="First" focusKey="a">
        <button type="button">Go on</button>
      </Centered>
    );
    const { ui, rerender, shadow } = await renderInFrame(first);
    // A fresh page: the landing step leaves focus with the page.
    expect(shadow.activeElement).toBeNull();
    expect(ui.getByRole('heading', { name: 'First' }).tabIndex).toBe(-1);
    ui.getByRole('button', { name: 'Go on' }).focus();
    // The button goes with its step: the next step's heading takes the focus.
    rerender(<Centered icon="spinner" tone="busy" title="Second" focusKey="b" />);
    await waitFor(() => expect(shadow.activeElement).toBe(ui.getByRole('heading', { name: 'Second' })));
  });
});
