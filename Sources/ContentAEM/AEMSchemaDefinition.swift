/// The GraphQL schema AEM generates for a set of content fragment models, written as SDL.
///
/// Per model `x` with type `XModel`: `xList(filter, sort, offset, limit, _assetTransform)` →
/// `XModelResults { items }`, `xByPath(_path, variation, _assetTransform)` → `XModelResult { item }`,
/// and `xPaginated(first, after, sort, filter, _assetTransform)` → `XModelConnection { edges pageInfo }`.
package enum AEMSchemaDefinition {
    package static func sdl(for models: [ContentFragmentModel]) -> String {
        var lines: [String] = [shared]
        let byName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var queryFields: [String] = []
        for model in models {
            let type = model.typeName
            var fields = ["  _path: ID", "  _id: String", "  _variation: String"]
            var filters = ["  _path: StringFilter", "  _logOp: LogOp"]
            for field in model.fields {
                fields.append("  \(field.name): \(outputType(field, models: byName))")
                if let filter = filterType(field, models: byName) { filters.append("  \(field.name): \(filter)") }
            }
            lines.append("type \(type) {\n\(fields.joined(separator: "\n"))\n}")
            lines.append("input \(type)Filter {\n\(filters.joined(separator: "\n"))\n}")
            lines.append("type \(type)Results {\n  items: [\(type)!]!\n}")
            lines.append("type \(type)Result {\n  item: \(type)\n}")
            lines.append("type \(type)Edge {\n  cursor: String!\n  node: \(type)!\n}")
            lines.append("type \(type)Connection {\n  edges: [\(type)Edge!]!\n  pageInfo: PageInfo!\n}")
            let transform = "_assetTransform: AssetTransform"
            queryFields.append(
                "  \(model.name)List(filter: \(type)Filter, sort: String, offset: Int, limit: Int, variation: String, "
                    + "includeVariations: Boolean, \(transform)): \(type)Results!"
            )
            queryFields.append("  \(model.name)ByPath(_path: String!, variation: String, \(transform)): \(type)Result!")
            queryFields.append(
                "  \(model.name)Paginated(first: Int, after: String, sort: String, filter: \(type)Filter, \(transform)): "
                    + "\(type)Connection!"
            )
        }
        lines.append("type Query {\n\(queryFields.joined(separator: "\n"))\n}")
        return lines.joined(separator: "\n\n")
    }

    private static func outputType(_ field: ContentFragmentModel.Field, models: [String: ContentFragmentModel])
        -> String
    {
        switch field.type {
        case .text, .enumeration: return "String"
        case .multiline: return "MultiFormatString"
        case .number: return "Float"
        case .integer: return "Int"
        case .boolean: return "Boolean"
        case .datetime, .date: return "Calendar"
        case .tags: return "[String]"
        case .contentReference: return "ImageRef"
        case .fragmentReference:
            let target = field.model.flatMap { models[$0] }?.typeName ?? "String"
            return field.multiple ? "[\(target)]" : target
        }
    }

    private static func filterType(_ field: ContentFragmentModel.Field, models: [String: ContentFragmentModel])
        -> String?
    {
        switch field.type {
        case .text, .enumeration, .multiline, .tags, .contentReference: return "StringFilter"
        case .number: return "FloatFilter"
        case .integer: return "IntFilter"
        case .boolean: return "BooleanFilter"
        case .datetime, .date: return "CalendarFilter"
        case .fragmentReference: return field.model.flatMap { models[$0] }.map { "\($0.typeName)Filter" }
        }
    }

    /// Types every AEM schema has.
    private static let shared = """
        scalar JSON
        scalar Calendar

        enum LogOp { AND OR }
        enum StringOperator { EQUALS EQUALS_NOT CONTAINS CONTAINS_NOT STARTS_WITH }
        enum FloatOperator { EQUALS EQUALS_NOT GREATER GREATER_EQUAL LOWER LOWER_EQUAL }
        enum IntOperator { EQUALS EQUALS_NOT GREATER GREATER_EQUAL LOWER LOWER_EQUAL }
        enum BooleanOperator { EQUALS EQUALS_NOT }
        enum CalendarOperator { EQUALS EQUALS_NOT BEFORE AT_OR_BEFORE AFTER AT_OR_AFTER }
        enum AssetTransformFormat { GIF PNG PNG8 JPG PJPG BJPG WEBP WEBPLL WEBPLY }

        input AssetTransform {
          format: AssetTransformFormat
          seoName: String
          width: Int
          height: Int
          quality: Int
          preferWebp: Boolean
        }

        input StringFilterExpression { value: String, _operator: StringOperator = EQUALS, _ignoreCase: Boolean = false }
        input StringFilter { _logOp: LogOp = AND, _expressions: [StringFilterExpression!]! }
        input FloatFilterExpression { value: Float!, _operator: FloatOperator = EQUALS }
        input FloatFilter { _logOp: LogOp = AND, _expressions: [FloatFilterExpression!]! }
        input IntFilterExpression { value: Int!, _operator: IntOperator = EQUALS }
        input IntFilter { _logOp: LogOp = AND, _expressions: [IntFilterExpression!]! }
        input BooleanFilterExpression { value: Boolean!, _operator: BooleanOperator = EQUALS }
        input BooleanFilter { _logOp: LogOp = AND, _expressions: [BooleanFilterExpression!]! }
        input CalendarFilterExpression { value: Calendar!, _operator: CalendarOperator = EQUALS }
        input CalendarFilter { _logOp: LogOp = AND, _expressions: [CalendarFilterExpression!]! }

        type MultiFormatString {
          html: String
          markdown: String
          plaintext: String
          json: JSON
        }

        type ImageRef {
          _path: String
          _authorUrl: String
          _publishUrl: String
          _dynamicUrl: String
          mimeType: String
          width: Int
          height: Int
        }

        type PageInfo {
          startCursor: String
          endCursor: String
          hasNextPage: Boolean!
          hasPreviousPage: Boolean!
        }
        """
}
