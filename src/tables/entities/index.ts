import { TableViewEntity } from './table-view.entity';
import { TableEntity } from './table.entity';

export { TableEntity, TableViewEntity };

export const TABLES_ENTITIES = [TableEntity, TableViewEntity];
