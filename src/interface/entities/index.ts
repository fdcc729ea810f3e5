import { LanguageEntity } from './language.entity';
import { MenuEntity } from './menu.entity';
import { PageEntity } from './page.entity';
import { SectionEntity } from './section.entity';
import { SnippetEntity } from './snippet.entity';

export { LanguageEntity, MenuEntity, PageEntity, SectionEntity, SnippetEntity };

export const INTERFACE_ENTITIES = [PageEntity, MenuEntity, SnippetEntity, LanguageEntity, SectionEntity];
