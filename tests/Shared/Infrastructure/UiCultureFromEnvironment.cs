using System;
using System.Globalization;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Picks the UI culture the way `dotnet build` does (DOTNET_CLI_UI_LANGUAGE), so the differential lane
/// started with DOTNET_CLI_UI_LANGUAGE=de compares both tasks' messages in German, as a build would show them.
/// Each runner calls it from a module initializer of its own, before any test runs.
/// </summary>
public static class UiCultureFromEnvironment
{
    public static void Apply()
    {
        string? language = Environment.GetEnvironmentVariable("DOTNET_CLI_UI_LANGUAGE");
        if (string.IsNullOrEmpty(language))
        {
            return;
        }

        var culture = CultureInfo.GetCultureInfo(language);
        CultureInfo.DefaultThreadCurrentUICulture = culture;
        CultureInfo.CurrentUICulture = culture;
    }
}
