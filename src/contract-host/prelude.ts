/**
 * Functions the contract language provides but that are themselves written in it, over DBSelect.
 * (Parameters typed `array` take a column list or an order as text, a map or an array: the language
 * checks only string and int parameters.)
 *
 * CurrentKeyFromAccount(account): the id of the undeleted key of ecosystem 1 with that address, 0 when none
 * (the reference compiles it into ecosystem 1's VM with DBFind, DBRow and ConditionById).
 *
 * TopAmounts(ecosystem, count): the accounts of an ecosystem holding the most tokens, largest first (ties
 * by key id), as maps {id, account, amount}; deleted and blocked keys and empty ones are left out.
 */
export const PRELUDE = `
func DBFind(table string).Columns(columns array).Where(where map).WhereId(id int).Order(order array).Limit(limit int).Offset(offset int) array {
    return DBSelect(table, columns, id, order, offset, limit, where)
}

func DBRow(table string).Columns(columns array).Where(where map).WhereId(id int).Order(order array) map {
    var rows array
    rows = DBSelect(table, columns, id, order, 0, 1, where)
    if Len(rows) == 0 {
        var empty map
        return empty
    }
    return rows[0]
}

func ConditionById(table string, validate bool) {
    var condition string
    condition = DBFind(table).Columns("conditions").WhereId($Id).One("conditions")
    if condition == "" {
        error Sprintf("Item %d has not been found", $Id)
    }
    // The row's condition first, then the new one: the reference's order, so the same request fails the same way.
    if !Eval(condition) {
        error "Access denied"
    }
    if validate {
        ValidateCondition($Conditions, $ecosystem_id)
    }
}

func CurrentKeyFromAccount(account string) int {
    var row map
    row = DBRow("@1keys").Columns("id").Where({"account": account, "deleted": 0})
    if Len(row) == 0 {
        return 0
    }
    return Int(row["id"])
}

func TopAmounts(ecosystem int, count int) array {
    if ecosystem <= 0 {
        error Sprintf("ecosystem %d must be positive", ecosystem)
    }
    if count <= 0 || count > 10000 {
        error Sprintf("count %d must be from 1 to 10000", count)
    }
    return DBSelect(Sprintf("@%dkeys", ecosystem), "id,account,amount", 0, {"amount": "desc", "id": "asc"}, 0, count, {"deleted": 0, "blocked": 0, "amount": {"$gt": 0}})
}
`;
