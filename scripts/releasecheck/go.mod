module github.com/partnerinsure/insurance-go/scripts/releasecheck

go 1.26

require golang.org/x/mod v0.40.0
