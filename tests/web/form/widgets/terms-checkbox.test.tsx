// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { brands, renderForm } from '../helpers';

it('starts unticked, validates on change, links to the policy of brand, country and language', async () => {
  const { user } = renderForm(brands.kuppersbusch, 'nl', 'be');
  const box = screen.getByRole('checkbox', { name: /Ik ga akkoord met de verwerking/ }) as HTMLInputElement;
  expect(box.checked).toBe(false);
  expect(screen.getByRole('link', { name: 'privacybeleid' }).getAttribute('href')).toBe(
    'https://www.example.com/kuppersbusch/be-nl/privacybeleid',
  );
  await user.click(box);
  await user.click(box);
  expect(screen.getAllByText('This field is required')).toHaveLength(1);
  expect(box.getAttribute('aria-invalid')).toBe('true');
  await user.click(box);
  expect(screen.queryByText('This field is required')).toBeNull();
});

it('Dutch policy outside Belgium', () => {
  renderForm(brands.teka, 'fr', 'fr');
  expect(screen.getByRole('link', { name: 'politique de confidentialité' }).getAttribute('href')).toBe(
    'https://www.example.com/teka/nl/privacybeleid',
  );
});
