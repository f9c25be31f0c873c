/// The GraphQL schema AEM generates for a set of content fragment models, written as SDL.
///
/// Names and shapes are AEM's, as a real instance's introspection shows them (the corpus's 2021 WKND dump: root
/// type `QueryType`, scalar `Json`, content references as the `Reference` union, `IDFilter` on `_path`,
/// `MultiFormatStringFilter`, `*ArrayFilter` with `_apply: ArrayMode`, number operators `EQUAL UNEQUAL …`, date and
/// time operators `AT NOT_AT …`, nullable filter values, `_metadata: TypedMetaData`, `_variations`, `_model`), with
/// what newer AEM adds beside it (the 2024 schema the corpus describes: `xById`, `xPaginated`, `offset`, `limit`,
/// `sort`, `includeVariations`, `_id`, `_tags`, `_instances`, `_assetTransform`, `_dynamicUrl`).
///
/// Per model `x` with type `XModel`: `xList(filter, sort, offset, limit, _locale, variation, includeVariations,
/// _assetTransform)` → `XModelResults { items _references }`, `xByPath(_path, variation, _assetTransform)` and
/// `xById(_id, variation, _assetTransform)` → `XModelResult { item _references }`, and `xPaginated(first, after,
/// filter, sort, _locale, variation, includeVariations, _assetTransform)` → `XModelConnection { edges pageInfo }`.
package enum AEMSchemaDefinition {
    package static func sdl(for models: [ContentFragmentModel]) -> String {
        var lines: [String] = ["schema { query: QueryType }", shared]
        let byName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var queryFields: [String] = []
        for model in models {
            let type = model.typeName
            var fields = ["  _path: ID", "  _id: String", "  _variation: String"]
            var filters = ["  _logOp: LogOp = AND", "  _path: IDFilter", "  _variation: StringFilter"]
            for field in model.fields {
                fields.append("  \(field.name): \(outputType(field, models: byName))")
                if let filter = filterType(field, models: byName) { filters.append("  \(field.name): \(filter)") }
            }
            fields += [
                "  _metadata: TypedMetaData", "  _variations: [String]", "  _model: ModelInfo", "  _tags: [String]",
            ]
            filters += ["  _variations: StringArrayFilter", "  _tags: StringArrayFilter"]
            lines.append("type \(type) {\n\(fields.joined(separator: "\n"))\n}")
            lines.append("input \(type)Filter {\n\(filters.joined(separator: "\n"))\n}")
            lines.append("input \(type)ArrayFilter {\n  _match: \(type)Filter\n  _apply: ArrayMode\n}")
            lines.append("type \(type)Results {\n  items: [\(type)]!\n  _references: [Reference]\n}")
            lines.append("type \(type)Result {\n  item: \(type)!\n  _references: [Reference]\n}")
            lines.append("type \(type)Edge {\n  cursor: String!\n  node: \(type)!\n}")
            lines.append("type \(type)Connection {\n  edges: [\(type)Edge]!\n  pageInfo: PageInfo!\n}")
            let transform = "_assetTransform: AssetTransform"
            let variations = "_locale: String, variation: String, includeVariations: Boolean"
            queryFields += [
                "  \(model.name)List(filter: \(type)Filter, sort: String, offset: Int, limit: Int, \(variations), "
                    + "\(transform)): \(type)Results!",
                "  \(model.name)ByPath(_path: String!, variation: String, \(transform)): \(type)Result!",
                "  \(model.name)ById(_id: String!, variation: String, \(transform)): \(type)Result!",
                "  \(model.name)Paginated(first: Int, after: String, filter: \(type)Filter, sort: String, "
                    + "\(variations), \(transform)): \(type)Connection!",
            ]
        }
        let modelTypes = models.map(\.typeName)
        lines.append(
            "union Reference = "
                + (["PageRef", "ImageRef", "MultimediaRef", "ArchiveRef", "DocumentRef"] + modelTypes)
                .joined(separator: " | "))
        if !modelTypes.isEmpty { lines.append("union AllFragmentModels = " + modelTypes.joined(separator: " | ")) }
        // A schema without models still has a root field to be valid; AEM's always has models.
        if queryFields.isEmpty { queryFields.append("  _empty: Boolean") }
        lines.append("type QueryType {\n\(queryFields.joined(separator: "\n"))\n}")
        return lines.joined(separator: "\n\n")
    }

    /// The GraphQL type of one value of a field, before `multiple` makes it a list.
    private static func valueType(_ field: ContentFragmentModel.Field, models: [String: ContentFragmentModel])
        -> String
    {
        switch field.type {
        case .text, .enumeration, .tags: return "String"
        case .multiline: return "MultiFormatString"
        case .number: return "Float"
        case .integer: return "Int"
        case .boolean: return "Boolean"
        case .datetime: return "Calendar"
        case .date: return "Date"
        case .time: return "Time"
        case .json: return "Json"
        case .contentReference: return "Reference"
        case .fragmentReference: return field.model.flatMap { models[$0] }?.typeName ?? "String"
        }
    }

    private static func outputType(_ field: ContentFragmentModel.Field, models: [String: ContentFragmentModel])
        -> String
    {
        let value = valueType(field, models: models)
        return field.multiple || field.type == .tags ? "[\(value)]" : value
    }

    /// The filter of a field: its type's, or the `Array` one for several values; content references and JSON
    /// objects are not filtered.
    private static func filterType(_ field: ContentFragmentModel.Field, models: [String: ContentFragmentModel])
        -> String?
    {
        let several = field.multiple || field.type == .tags
        switch field.type {
        case .contentReference, .json: return nil
        case .fragmentReference:
            return field.model.flatMap { models[$0] }.map { "\($0.typeName)\(several ? "ArrayFilter" : "Filter")" }
        default:
            return valueType(field, models: models) + (several ? "ArrayFilter" : "Filter")
        }
    }

    /// A scalar's filter inputs: `XFilter`, `XFilterExpression`, `XArrayFilter` and `XArrayFilterExpression`.
    ///
    /// `_ignoreCase` is on single strings only and `_sensitiveness` on floats, single or not, as AEM has them.
    private static func scalarFilters(_ scalar: String, operator name: String, default value: String) -> String {
        let single = scalar == "String" ? ", _ignoreCase: Boolean" : scalar == "Float" ? ", _sensitiveness: Float" : ""
        let several = scalar == "Float" ? ", _sensitiveness: Float" : ""
        return """
            input \(scalar)Filter { _logOp: LogOp = AND, _expressions: [\(scalar)FilterExpression]! }
            input \(scalar)FilterExpression { value: \(scalar), _operator: \(name) = \(value)\(single) }
            input \(scalar)ArrayFilter { _logOp: LogOp = AND, _expressions: [\(scalar)ArrayFilterExpression]! }
            input \(scalar)ArrayFilterExpression {
              value: \(scalar), values: [\(scalar)], _apply: ArrayMode, _instances: Int, _operator: \(name) = \(value)\(several)
            }

            """
    }

    /// Types every AEM schema has.
    private static let shared =
        """
        scalar Json
        scalar Calendar
        scalar Date
        scalar Time

        directive @resolver(name: String, options: String, source: String) on UNION
        directive @fetcher(name: String, options: String, source: String) on FIELD_DEFINITION
        directive @connection(for: String!) on FIELD_DEFINITION

        enum LogOp { AND OR }
        enum ArrayMode { AT_LEAST_ONCE ALL ALL_OR_EMPTY INSTANCES }
        enum StringOperator { EQUALS EQUALS_NOT CONTAINS CONTAINS_NOT }
        enum IDOperator { EQUALS EQUALS_NOT STARTS_WITH }
        enum FloatOperator { EQUAL UNEQUAL GREATER GREATER_EQUAL LOWER LOWER_EQUAL }
        enum IntOperator { EQUAL UNEQUAL GREATER GREATER_EQUAL LOWER LOWER_EQUAL }
        enum BooleanOperator { EQUALS }
        enum CalendarOperator { AT NOT_AT BEFORE AT_OR_BEFORE AFTER AT_OR_AFTER }
        enum DateOperator { AT NOT_AT BEFORE AT_OR_BEFORE AFTER AT_OR_AFTER }
        enum TimeOperator { AT NOT_AT BEFORE AT_OR_BEFORE AFTER AT_OR_AFTER }
        enum AssetTransformFormat { GIF PNG PNG8 JPG PJPG BJPG WEBP WEBPLL WEBPLY }
        enum AssetTransformRotation { R90 R180 R270 }
        enum AssetTransformFlip { HORIZONTAL VERTICAL HORIZONTAL_AND_VERTICAL }

        input AssetTransform {
          format: AssetTransformFormat!
          seoName: String
          crop: AssetTransformCrop
          size: AssetTransformSize
          rotation: AssetTransformRotation
          flip: AssetTransformFlip
          quality: Int
          width: Int
          preferWebp: Boolean
        }
        input AssetTransformCrop { xOrigin: Int!, yOrigin: Int!, width: Int, height: Int }
        input AssetTransformSize { width: Int, height: Int }

        """
        + scalarFilters("String", operator: "StringOperator", default: "EQUALS")
        + scalarFilters("ID", operator: "IDOperator", default: "EQUALS")
        + scalarFilters("Float", operator: "FloatOperator", default: "EQUAL")
        + scalarFilters("Int", operator: "IntOperator", default: "EQUAL")
        + scalarFilters("Boolean", operator: "BooleanOperator", default: "EQUALS")
        + scalarFilters("Calendar", operator: "CalendarOperator", default: "AT")
        + scalarFilters("Date", operator: "DateOperator", default: "AT")
        + scalarFilters("Time", operator: "TimeOperator", default: "AT")
            + """

            input MultiFormatStringFilter {
              _logOp: LogOp = AND
              html: StringFilter
              markdown: StringFilter
              plaintext: StringFilter
            }
            input MultiFormatStringArrayFilter { _match: MultiFormatStringFilter, _apply: ArrayMode }

            type MultiFormatString {
              html: String
              markdown: String
              plaintext: String
              json: Json
            }

            type ImageRef {
              type: String
              _path: ID
              _id: String
              _authorUrl: String
              _publishUrl: String
              _dynamicUrl: String
              _dmS7Url: String
              _smartCrops: [SmartCrop]
              width: Int
              height: Int
              mimeType: String
            }
            type SmartCrop { width: Int, height: Int, name: String }
            type DocumentRef {
              type: String
              _path: ID
              _authorUrl: String
              _publishUrl: String
              size: Int
              author: String
              format: String
            }
            type MultimediaRef { type: String, _path: ID, _authorUrl: String, _publishUrl: String, size: Int, format: String }
            type ArchiveRef { type: String, _path: ID, _authorUrl: String, _publishUrl: String, size: Int, format: String }
            type PageRef { type: String, _path: ID, _authorUrl: String, _publishUrl: String }

            type ModelInfo { _path: ID, title: String }
            type TypedMetaData {
              stringMetadata: [StringMetadata]!
              stringArrayMetadata: [StringArrayMetadata]!
              intMetadata: [IntMetadata]!
              intArrayMetadata: [IntArrayMetadata]!
              floatMetadata: [FloatMetadata]!
              floatArrayMetadata: [FloatArrayMetadata]!
              booleanMetadata: [BooleanMetadata]!
              booleanArrayMetadata: [BooleanArrayMetadata]!
              calendarMetadata: [CalendarMetadata]!
              calendarArrayMetadata: [CalendarArrayMetadata]!
            }
            type StringMetadata { name: String!, value: String! }
            type StringArrayMetadata { name: String!, value: [String]! }
            type IntMetadata { name: String!, value: Int! }
            type IntArrayMetadata { name: String!, value: [Int]! }
            type FloatMetadata { name: String!, value: Float! }
            type FloatArrayMetadata { name: String!, value: [Float]! }
            type BooleanMetadata { name: String!, value: Boolean! }
            type BooleanArrayMetadata { name: String!, value: [Boolean]! }
            type CalendarMetadata { name: String!, value: Calendar! }
            type CalendarArrayMetadata { name: String!, value: [Calendar]! }

            type PageInfo {
              startCursor: String
              endCursor: String
              hasNextPage: Boolean!
              hasPreviousPage: Boolean!
            }
            """
}
