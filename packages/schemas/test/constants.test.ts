import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as constants from '../src/constants';
import { appRoleId, chatbotType, modelType, providerKind, runStatus } from '../src';

describe('the constants entry', () => {
  it('imports nothing from outside its folder, so the web app gets no zod through it', () => {
    const dir = new URL('../src/constants/', import.meta.url);
    for (const name of readdirSync(dir)) {
      const text = readFileSync(new URL(name, dir), 'utf8');
      for (const [, from] of text.matchAll(/\bfrom\s+'([^']+)'/g)) expect(from, name).toMatch(/^\.\/[\w-]+$/);
    }
  });

  it('is what the zod enums are built from', () => {
    expect(appRoleId.options).toEqual([...constants.appRoleIds]);
    expect(chatbotType.options).toEqual([...constants.chatbotTypes]);
    expect(modelType.options).toEqual([...constants.modelTypes]);
    expect(providerKind.options).toEqual([...constants.providerKinds]);
    expect(runStatus.options).toEqual([...constants.runStatuses]);
  });

  it('orders the role sets from most to fewest rights', () => {
    expect(constants.ALL_ROLES).toEqual(['admin', 'creator', 'user']);
    expect(constants.BUILDERS).toEqual(['admin', 'creator']);
    expect(constants.ADMINS).toEqual(['admin']);
  });
});
