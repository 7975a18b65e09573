module github.com/partnerinsure/insurance-go/scripts/releasecheck

go 1.25.0

require golang.org/x/mod v0.40.0
