using System;
using System.Globalization;
using System.Runtime.CompilerServices;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// Picks the UI culture the way `dotnet build` does (DOTNET_CLI_UI_LANGUAGE), so the differential lane
/// started with DOTNET_CLI_UI_LANGUAGE=de compares both tasks' messages in German, as a build would show them.
/// </summary>
internal static class UiCultureFromEnvironment
{
    [ModuleInitializer]
    internal static void Apply()
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
