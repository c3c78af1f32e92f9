import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, errorText } from '../src/lib/api-client';
import { problemsByField } from '../src/lib/error-text';
import { bundle } from './locale-bundles';

beforeAll(async () => {
  await i18next.init({
    lng: 'fr',
    fallbackLng: 'en',
    resources: { en: { translation: bundle('en') }, fr: { translation: bundle('fr') } },
    interpolation: { escapeValue: false },
  });
});

const validation = (errors: object[]) =>
  new ApiError(
    422,
    'validation_error',
    'Please check the request: email must be a valid email address.',
    null,
    [...(errors as never[])],
  );

describe('an API error in the reader’s language', () => {
  it('says a validation problem field by field, in French', async () => {
    await i18next.changeLanguage('fr');
    const error = validation([
      { in: 'body', field: 'email', code: 'invalid_format', params: { format: 'email' }, message: 'x' },
      { in: 'body', field: 'name', code: 'required', params: {}, message: 'x' },
    ]);
    expect(errorText(error, 'fallback')).toBe(
      'E-mail doit être une adresse e-mail valide. Nom : ce champ est obligatoire.',
    );
    expect(problemsByField(error.problems)).toEqual({
      email: 'E-mail doit être une adresse e-mail valide.',
      name: 'Nom : ce champ est obligatoire.',
    });
  });

  it('and in English, with limits, choices and password rules', async () => {
    await i18next.changeLanguage('en');
    const error = validation([
      { in: 'body', field: 'lastName', code: 'too_long', params: { limit: 100 }, message: 'x' },
      {
        in: 'body',
        field: 'user_role_id',
        code: 'invalid_value',
        params: { values: ['admin', 'user'] },
        message: 'x',
      },
      {
        in: 'body',
        field: 'password',
        code: 'weak_password',
        params: { missing: ['uppercase', 'number'] },
        message: 'x',
      },
      { in: 'body', field: 'nick_name', code: 'unknown_field', params: {}, message: 'x' },
    ]);
    expect(errorText(error, 'fallback')).toBe(
      'Last name must be at most 100 characters long. Role must be one of: admin, user. ' +
        'The password needs an uppercase letter, a number. nick name is not a field this form accepts.',
    );
  });

  it('translates codes with a fixed meaning and keeps the detail of the others', async () => {
    await i18next.changeLanguage('fr');
    expect(
      errorText(new ApiError(401, 'invalid_credentials', 'The email or password is incorrect.'), 'x'),
    ).toBe("L'e-mail ou le mot de passe est incorrect.");
    expect(errorText(new ApiError(0, 'network_error', 'Failed to communicate with the server'), 'x')).toBe(
      'Impossible de communiquer avec le serveur',
    );
    expect(errorText(new ApiError(404, 'not_found', 'The chatbot Foo was not found.'), 'x')).toBe(
      'The chatbot Foo was not found.',
    );
    expect(errorText(new Error('boom'), 'Erreur inconnue')).toBe('Erreur inconnue');
  });
});
