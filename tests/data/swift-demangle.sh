#!/bin/sh
# A stand-in for swift-demangle in the tests (spec/ios.md 7): one answer line per name.
while IFS= read -r name; do
    case "$name" in
    *5MyApp4ViewC4loadyyF) echo 'MyApp.View.load() -> ()' ;;
    *5MyApp5ModelV4saveyyF) echo 'MyApp.Model.save() -> ()' ;;
    *SS6appendyySSF) echo 'Swift.String.append(Swift.String) -> ()' ;;
    *) printf '%s\n' "$name" ;;
    esac
done
