/// A content fragment model, as a workspace declares it in `models/<name>.yaml`.
///
/// Configuration keys:
/// - `name` (string, required): the model's GraphQL name, such as `adventure`; queries are
///   `adventureList`, `adventureByPath` and `adventurePaginated`, the type `AdventureModel`.
/// - `title` (string, optional): a human title.
/// - `fields` (mapping, required): field name → `{ type, values?, model?, multiple? }`, in order.
///   Types: `text`, `multiline` (rich text), `number`, `integer`, `boolean`, `enumeration` (with
///   `values`), `datetime`, `date`, `time`, `json` (a JSON object), `tags`, `contentReference` (a DAM asset or
///   page), `fragmentReference` (with `model`). `multiple: true` makes any of them a list, as AEM's
///   "render as multiple field" does.
package struct ContentFragmentModel: Decodable, Sendable {
    /// The kinds of field AEM models offer.
    package enum FieldType: String, Decodable, Sendable, CaseIterable {
        case text, multiline, number, integer, boolean, enumeration, datetime, date, time, json, tags
        case contentReference, fragmentReference
    }

    /// One field of a model.
    package struct Field: Sendable {
        package var name: String
        package var type: FieldType
        package var values: [String]
        package var model: String?
        package var multiple: Bool
    }

    package var name: String
    package var title: String?
    package var fields: [Field]

    /// `AdventureModel`.
    package var typeName: String { name.prefix(1).uppercased() + name.dropFirst() + "Model" }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        let fieldMap = try container.nestedContainer(keyedBy: NameKey.self, forKey: .fields)
        fields = try fieldMap.allKeys.map { key in
            let spec = try fieldMap.decode(FieldSpec.self, forKey: key)
            return Field(
                name: key.stringValue,
                type: spec.type,
                values: spec.values ?? [],
                model: spec.model,
                multiple: spec.multiple ?? false
            )
        }
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), name.first?.isLetter == true else {
            throw DecodingError.dataCorruptedError(
                forKey: .name,
                in: container,
                debugDescription: "model names are letters and digits, starting with a letter, found '\(name)'"
            )
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, title, fields
    }

    private struct FieldSpec: Decodable {
        package var type: FieldType
        package var values: [String]?
        package var model: String?
        package var multiple: Bool?
    }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
