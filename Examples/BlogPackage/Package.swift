// swift-tools-version:6.1
// A blog kept in a Swift package. Tagflow comes in as a package dependency, and its command
// plugins build, check and preview the site, with nothing else to install:
//
//   swift package --allow-writing-to-package-directory tagflow build    # into _site/
//   swift package --allow-writing-to-package-directory tagflow check --strict
//   swift package --allow-network-connections local tagflow-serve       # http://127.0.0.1:8000/
//
// The site (site.yml, posts/, pages/) sits beside this file. Outside this repository, depend on
// Tagflow by URL instead: .package(url: "https://github.com/OWNER/tagflow", from: "0.1.0").

import PackageDescription

let package = Package(
    name: "BlogPackage",
    dependencies: [
        .package(name: "tagflow", path: "../..")
    ],
    targets: []
)
