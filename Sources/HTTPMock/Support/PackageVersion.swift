/// The package's version, as its faces report it (`httpmock --version`, the admin API's `/__admin/version`): the
/// newest version in CHANGELOG.md, which a test keeps equal.
package enum PackageVersion {
    package static let current = "0.3.0"
}
