import type { DictionaryEntry, DictionaryEntryForm } from '@/domain/dictionaries/dictionaries';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { createResource } from '@/lib/resource';

/** 字典管理's entries: the effective list of one dictionary, and the organisation's own entries' writes. */
export const dictionaryEntries = (family: ServedBy<'system.dictionary'>) =>
  createResource<DictionaryEntry, Partial<DictionaryEntryForm>>({ base: pageApi(`${family}.system.dictionary`) });
